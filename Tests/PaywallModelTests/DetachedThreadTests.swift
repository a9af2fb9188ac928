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
}
