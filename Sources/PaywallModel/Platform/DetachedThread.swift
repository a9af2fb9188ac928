#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A named system thread that runs `body` once and ends, for the jobs that must not wait on the
/// concurrency pool: the terminal, a controller's pipes, ICU's warm-up. A thread the system
/// refuses is reported, so the caller can say so in one line.
package enum DetachedThread {
  private final class Body {
    let name: String
    let run: () -> Void
    init(name: String, run: @escaping () -> Void) {
      self.name = name
      self.run = run
    }
  }

  /// Starts `body` on a new thread called `name` (the kernel keeps 15 bytes of it); false when
  /// the system refuses a thread. `stackBytes`: the thread's stack, where the system's default
  /// will not do (512 KiB on macOS, 8 MiB on Linux).
  @discardableResult
  package static func start(_ name: String, stackBytes: Int? = nil, _ body: @escaping @Sendable () -> Void) -> Bool {
    let context = Unmanaged.passRetained(Body(name: name, run: body)).toOpaque()
    #if canImport(Glibc)
    var thread = pthread_t()
    #else
    var thread: pthread_t?
    #endif
    // The thread starts with the signals that end the program blocked, as the pool's threads do:
    // they reach the main thread, waiting in `pause` (or, before the pool starts, drawing the first
    // frame), and never interrupt a terminal's write or a controller's read. A new thread inherits
    // its creator's mask, and the first frame's threads are made on the main thread.
    var blocked = sigset_t()
    var previous = sigset_t()
    sigfillset(&blocked)
    for synchronous in [SIGILL, SIGTRAP, SIGBUS, SIGFPE, SIGSEGV, SIGPIPE, SIGSYS] { sigdelset(&blocked, synchronous) }
    pthread_sigmask(SIG_BLOCK, &blocked, &previous)
    defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    defer { pthread_attr_destroy(&attributes) }
    if let stackBytes { pthread_attr_setstacksize(&attributes, stackBytes) }
    let created = pthread_create(&thread, &attributes, { context in
      #if canImport(Glibc)
      let body = Unmanaged<Body>.fromOpaque(context!).takeRetainedValue()
      _ = setThreadName(pthread_self(), String(decoding: body.name.utf8.prefix(15), as: UTF8.self))
      #else
      let body = Unmanaged<Body>.fromOpaque(context).takeRetainedValue()
      _ = pthread_setname_np(body.name)
      #endif
      body.run()
      return nil
    }, context)
    guard created == 0 else {
      Unmanaged<Body>.fromOpaque(context).release()
      return false
    }
    #if canImport(Glibc)
    pthread_detach(thread)
    #else
    if let thread { pthread_detach(thread) }
    #endif
    return true
  }

  /// Runs `body` once `delay` has passed, on a thread called `name`, whether or not the
  /// cooperative pool has a thread free then; at once, on the caller's thread, when the system
  /// refuses a thread.
  package static func after(_ delay: Duration, _ name: String, _ body: @escaping @Sendable () -> Void) {
    let (seconds, attoseconds) = delay.components
    let started = start(name) {
      var rest = timespec(tv_sec: Int(max(0, seconds)), tv_nsec: Int(max(0, attoseconds / 1_000_000_000)))
      var left = timespec()
      while nanosleep(&rest, &left) == -1 && errno == EINTR { rest = left }
      body()
    }
    if !started { body() }
  }
}

#if canImport(Glibc)
/// glibc declares it only under _GNU_SOURCE, which the Glibc module is not built with.
@_silgen_name("pthread_setname_np")
private func setThreadName(_ thread: pthread_t, _ name: UnsafePointer<CChar>) -> Int32
#endif
