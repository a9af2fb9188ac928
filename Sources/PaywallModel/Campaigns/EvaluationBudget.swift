#if canImport(FoundationEssentials) && !PAYWALL_FULL_FOUNDATION
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// Asks the audience evaluation under way to stop: the interactive app raises it while a `q`, an
/// Esc or an ending signal waits in its inbox, so a registration never holds them up (the
/// evaluation looks at it every few thousand steps and gives up).
public final class EvaluationInterrupt: Sendable {
  private let waiting = Mutex(0)

  /// An interrupt nothing has raised.
  public init() {}

  /// Something that must not wait arrived (and is queued).
  public func raise() { waiting.withLock { $0 += 1 } }

  /// What was raised for has been taken from the queue.
  public func lower() { waiting.withLock { $0 = max(0, $0 - 1) } }

  /// Whether the evaluation under way should give up.
  public var isRaised: Bool { waiting.withLock { $0 > 0 } }
}

/// The work one registration's audience evaluation may do, over all of its audiences: a step is
/// one node of a filter evaluated or one thread step of a `matches()` pattern. The SDK evaluates
/// on a device with no such bound; the emulator runs other people's projects, so a campaign of
/// 2,000 heavy audiences fails its registration with a reason instead of freezing the app.
struct EvaluationBudget {
  /// Measured: about 0.1 s of work in a release build (a debug build is many times slower).
  static let registrationSteps = 2_000_000
  /// How many steps go by between two looks at the interrupt.
  static let interruptInterval = 4_096

  var remaining: Int
  let interrupt: EvaluationInterrupt?
  private(set) var stopped: AbandonedEvaluation.Reason?
  private var untilCheck = EvaluationBudget.interruptInterval

  init(steps: Int = EvaluationBudget.registrationSteps, interrupt: EvaluationInterrupt?) {
    remaining = steps
    self.interrupt = interrupt
  }

  /// Takes `count` steps; false once the budget is spent or the evaluation was interrupted.
  mutating func spend(_ count: Int = 1) -> Bool {
    guard stopped == nil else { return false }
    remaining -= count
    if remaining < 0 {
      stopped = .budgetExceeded
      return false
    }
    untilCheck -= count
    if untilCheck <= 0 {
      untilCheck = Self.interruptInterval
      if interrupt?.isRaised == true {
        stopped = .interrupted
        return false
      }
    }
    return true
  }

  /// Whether `regex` matches in `text`, its steps spent here; nil once the budget stopped it.
  mutating func match(_ regex: AudienceRegex, in text: String) -> Bool? {
    regex.matches(text, budget: &self)
  }
}

/// A registration whose audience evaluation stopped before it decided: the registration fails
/// with this reason (the handler's `onError`), and nothing is assigned.
public struct AbandonedEvaluation: Sendable, Hashable {
  /// Why it stopped.
  public enum Reason: Sendable, Hashable {
    /// The filters did more work than a registration may (`EvaluationBudget`).
    case budgetExceeded
    /// The session was asked to stop (a `q`, an Esc, a signal) while they ran.
    case interrupted
  }

  /// Why it stopped.
  public var reason: Reason
  /// The audience (from 0) being evaluated when it stopped.
  public var audienceIndex: Int
  /// The placement registered.
  public var placement: String

  /// The handler's error code.
  public var code: String {
    switch reason {
    case .budgetExceeded: "audienceEvaluationBudgetExceeded"
    case .interrupted: "audienceEvaluationInterrupted"
    }
  }

  /// One line saying what happened and what to do.
  public var message: String {
    switch reason {
    case .budgetExceeded:
      "the audiences of placement \(quoting: placement) did more work than a registration may (\(EvaluationBudget.registrationSteps / 1_000_000) million steps, over its budget at audience \(audienceIndex + 1)): a filter's matches() pattern or list is too heavy; simplify it"
    case .interrupted:
      "the evaluation of placement \(quoting: placement)'s audiences stopped at audience \(audienceIndex + 1): the session was asked to end"
    }
  }
}

/// One interrupt is equal only to itself: it is a shared flag, not a value.
extension EvaluationInterrupt: Equatable {
  /// Whether the two are the same interrupt.
  public static func == (lhs: EvaluationInterrupt, rhs: EvaluationInterrupt) -> Bool { lhs === rhs }
}
