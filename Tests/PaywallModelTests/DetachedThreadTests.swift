import Foundation
import PaywallModel
import Synchronization
import Testing

@Suite struct DetachedThreadTests {
  @Test func runsTheBodyOnAThreadOfItsOwnUnderItsName() throws {
    let seen = Mutex<(name: String?, thread: pthread_t?)>((nil, nil))
    let done = DispatchSemaphore(value: 0)
    let caller = pthread_self()
    #expect(DetachedThread.start("pwt-test-thread-with-a-long-name") {
      #if os(Linux)
      let name = try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)
      #else
      var buffer = [CChar](repeating: 0, count: 64)
      pthread_getname_np(pthread_self(), &buffer, buffer.count)
      let name: String? = String(cString: buffer)
      #endif
      seen.withLock { $0 = (name, pthread_self()) }
      done.signal()
    })
    #expect(done.wait(timeout: .now() + 10) == .success)
    let (name, thread) = seen.withLock { $0 }
    #if os(Linux)
    // The kernel keeps 15 bytes of a thread's name.
    #expect(name == "pwt-test-thread\n")
    #else
    #expect(name == "pwt-test-thread-with-a-long-name")
    #endif
    #expect(thread.map { pthread_equal($0, caller) == 0 } == true)
  }

  /// A helper asked for a stack gets it: `parallelMap`'s helpers parse a large document's
  /// elements, as deep as `JSONParser.maximumDepth`, where macOS gives a new thread 512 KiB.
  @Test func aThreadGetsTheStackItAsksFor() throws {
    let size = Mutex<Int>(0)
    let done = DispatchSemaphore(value: 0)
    #expect(DetachedThread.start("pwt-test-stack", stackBytes: 24 << 20) {
      #if os(Linux)
      var attributes = pthread_attr_t()
      _ = threadAttributes(pthread_self(), &attributes)
      var bytes = 0
      pthread_attr_getstacksize(&attributes, &bytes)
      pthread_attr_destroy(&attributes)
      #else
      let bytes = pthread_get_stacksize_np(pthread_self())
      #endif
      size.withLock { $0 = bytes }
      done.signal()
    })
    #expect(done.wait(timeout: .now() + 10) == .success)
    #expect(size.withLock { $0 } >= 24 << 20)
  }

  /// A detached thread starts with the signals that end the program blocked, whatever its
  /// creator's mask (the main thread, which takes them, makes the terminal's thread), so they
  /// reach the main thread and interrupt no read or write of the thread; the faults stay open.
  @Test func startsWithTheEndingSignalsBlocked() throws {
    let seen = Mutex<[Int32: Bool]>([:])
    let done = DispatchSemaphore(value: 0)
    var open = sigset_t()
    var previous = sigset_t()
    sigemptyset(&open)
    for signal in [SIGTERM, SIGINT, SIGHUP, SIGWINCH] { sigaddset(&open, signal) }
    pthread_sigmask(SIG_UNBLOCK, &open, &previous)
    defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
    #expect(DetachedThread.start("pwt-test-mask") {
      var mask = sigset_t()
      pthread_sigmask(SIG_BLOCK, nil, &mask)
      seen.withLock { seen in
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGWINCH, SIGSEGV, SIGBUS, SIGPIPE] { seen[signal] = sigismember(&mask, signal) == 1 }
      }
      done.signal()
    })
    #expect(done.wait(timeout: .now() + 10) == .success)
    let blocked = seen.withLock { $0 }
    for signal in [SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGWINCH] { #expect(blocked[signal] == true, "signal \(signal) reaches the thread") }
    for signal in [SIGSEGV, SIGBUS, SIGPIPE] { #expect(blocked[signal] == false, "signal \(signal) is blocked in the thread") }
  }
}

#if os(Linux)
/// glibc's `pthread_getattr_np`, which its Swift module leaves out (a GNU extension): a running
/// thread's attributes, its stack among them.
@_silgen_name("pthread_getattr_np")
private func threadAttributes(_ thread: pthread_t, _ attributes: UnsafeMutablePointer<pthread_attr_t>) -> Int32
#endif
