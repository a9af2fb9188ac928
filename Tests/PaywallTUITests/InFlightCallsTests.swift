@testable import PaywallUI
import Testing

/// A controller's calls in flight (`InFlightCalls`): started with no lock held, registered after,
/// taken when the app's process dies. Whatever the order, nothing is kept once every call ended.
@Suite("Controller calls in flight")
struct InFlightCallsTests {
  /// Waits, at most 5 s, for every call to have ended and left nothing behind.
  static func settled(_ calls: InFlightCalls) async throws -> Bool {
    for _ in 0..<500 {
      if calls.isEmpty { return true }
      try await Task.sleep(for: .milliseconds(10))
    }
    return calls.isEmpty
  }

  @Test func callsThatEndAtOnceLeaveNothing() async throws {
    let calls = InFlightCalls()
    for _ in 0..<1_000 { calls.start {} }
    #expect(try await Self.settled(calls))
  }

  /// A relaunch takes the calls in flight; each then ends (cancelled or not) and leaves nothing:
  /// their ids used to pile up, one per call, for the rest of the session.
  @Test func callsTakenByADyingProcessLeaveNothingWhenTheyEnd() async throws {
    let calls = InFlightCalls()
    for _ in 0..<100 {
      calls.start { try? await Task.sleep(for: .milliseconds(50)) }
    }
    let taken = calls.takeAll()
    #expect(taken.count > 0)
    for task in taken { task.cancel() }
    #expect(try await Self.settled(calls))
    #expect(calls.takeAll().isEmpty)
  }
}
