#if canImport(FoundationEssentials) && !PAYWALL_FULL_FOUNDATION
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PaywallModel
import TerminalCore
import PaywallUI

/// A `play` scenario: one command a line, `#` starts a comment.
///
///     press KEY…                 keys: up down left right tab btab enter esc space backspace, or a character
///     advance DURATION           the simulated clock: 30s, 2h, 1M (a calendar month), 1y (a calendar year)
///     status unknown|inactive|active|active:ENT,…   (`active` alone: every entitlement of the catalog, as --status)
///     placement NAME [key=value…]   (a placement of the project's; `placement unknown NAME`: one it has not)
///     user key=value…
///     open PAYWALL_ID            show a paywall directly
///     call purchase PRODUCT_ID | call restore | call getPresentationResult PLACEMENT [key=value…]
///                                the app calls `Superwall.shared.purchase(product)` /
///                                `restorePurchases()` with no paywall / `getPresentationResult` (`SDKCalls`)
///     approve | decline          a pending Ask to Buy purchase (simulated store)
///     refund|cancel|revoke [PRODUCT_ID], buy PRODUCT_ID, upgrade|downgrade|crossgrade [PRODUCT_ID],
///     billing-issue [PRODUCT_ID] [grace|no-grace], resolve-billing [PRODUCT_ID],
///     family-share|family-revoke [PRODUCT_ID], price-increase [PRODUCT_ID] [PRICE],
///     accept-price|decline-price [PRODUCT_ID], interrupt, resolve-interrupted
///                                the simulated store (`StoreAction`)
///     fail purchase|restore ERROR, latency DURATION, drop
///                                faults for any controller (ERROR: a StoreKit error name)
///     expect event NAME          NAME happened since the last matched `expect event`
///     expect screen TEXT         TEXT appears on one row of the screen ("TEXT" in quotes too)
///     expect status STATUS       the status is STATUS (`active` alone: any entitlement)
///     expect subscription PRODUCT_ID STATE
///                                the store's subscription to it is in STATE (subscribed, trial,
///                                intro, paid, inGracePeriod, inBillingRetryPeriod, expired, revoked)
///     screenshot FILE            the screen as a picture (.svg, .html or .txt)
///     background [DURATION] | foreground
///                                the app resigns active / becomes active again (`app_close`, `app_open`)
///     deeplink URL               the app calls `Superwall.handleDeepLink(url)` (`deepLink_open`)
package struct PlayScript: Sendable {
  package enum Command: Sendable, Hashable {
    case press([Key])
    /// `M` and `y` are calendar units, as the store's periods are.
    case advance(ClockDistance)
    /// `everyEntitlement`: `status active` alone, every entitlement of the catalog (as `--status active`).
    case status(SubscriptionStatus, everyEntitlement: Bool)
    /// `unknown`: `placement unknown NAME`, a name no campaign has, registered on purpose (the
    /// SDK's placementNotFound); a plain `placement` must name one of the project's (`ScriptNames`).
    case placement(String, params: [String: String], unknown: Bool = false)
    case user([String: String])
    /// Slot overrides for the paywalls presented from now on; empty clears them.
    case override([SlotOverride])
    case open(String)
    /// The app killed and launched again: its launch events, and the campaigns on them.
    case relaunch
    /// The app deleted and installed again on the same account: a new user, the store's purchases kept.
    case reinstall
    /// The device's notification permission, as the user sets it in Settings.
    case notifications(NotificationPermission)
    /// The app calls the SDK's `purchase(product)` or `restorePurchases()` outside a paywall.
    case call(SDKCallCommand)
    case store(StoreAction)
    /// An answer to the survey on screen: an option (by id, or its title), "Other" with text, or
    /// "Close".
    case survey(SurveyStep)
    case fail(FaultTarget, StoreError)
    /// `fail purchase ERROR`: Google Play's billing response, on Android.
    case failPlay(PlayBillingResponse)
    case latency(seconds: Double)
    case drop
    /// The terminal is resized (a recording's `resize WxH`): the screen and mouse hit-tests follow.
    case resize(Size)
    /// What the next purchase or restore returns, after how long (a recorded controller's answer).
    case answer(RecordedAnswer)
    /// The next such event (after the last one matched), with these parameters.
    case expectEvent(EventName, params: [String: String])
    /// No such event since the last one matched.
    case expectNoEvent(EventName, params: [String: String])
    case expectScreen(String)
    /// The screen does not show the text.
    case expectNoScreen(String)
    /// `anyActive`: `expect status active` with no entitlements matches any active status.
    case expectStatus(SubscriptionStatus, anyActive: Bool)
    case expectSubscription(productID: String, SubscriptionExpectation)
    /// `expect subscription PRODUCT offer TYPE [ID]`: the current period runs on that offer (`none`: the regular price).
    case expectSubscriptionOffer(productID: String, type: LedgerEntry.OfferType?, id: String?)
    /// Writes the screen as a picture (SVG, HTML or text, by the file's extension).
    case screenshot(String)
    /// The app goes to the background (`app_close`); with a duration, the clock moves that far and
    /// the app comes back (`foreground`).
    case background(ClockDistance?)
    /// The app comes back from the background: `app_open`, and `session_start` after the timeout.
    case foreground
    /// The app hands the SDK a deep link (`Superwall.handleDeepLink(url)`).
    case deepLink(String)
  }

  /// What `call` calls: `purchase PRODUCT_ID`, `restore` or `getPresentationResult PLACEMENT`.
  package enum SDKCallCommand: Sendable, Hashable {
    case purchase(productID: String)
    case restore
    /// `unknown`: `call getPresentationResult unknown NAME`, a name no campaign has, on purpose.
    case presentationResult(placement: String, params: [String: String], unknown: Bool)
  }

  package enum FaultTarget: String, Sendable, Hashable, CaseIterable {
    case purchase, restore
  }

  /// What `expect subscription PRODUCT_ID STATE` checks.
  package enum SubscriptionExpectation: String, Sendable, Hashable, CaseIterable {
    /// Any subscribed state (a trial or intro period included).
    case subscribed
    /// Subscribed in a free trial, at an introductory price, or at the regular price.
    case trial, intro, paid
    case inGracePeriod, inBillingRetryPeriod, expired, revoked
    /// Google Play's account hold: the billing retry state, entitlement lost.
    case onHold
    /// Google Play: paused by the subscriber.
    case paused

    package func matches(_ subscription: StoreSubscription) -> Bool {
      switch self {
      case .subscribed: subscription.state == .subscribed
      case .trial: subscription.state == .subscribed && subscription.offer == .freeTrial && subscription.isIntroductory
      case .intro: subscription.state == .subscribed && (subscription.offer == .payAsYouGo || subscription.offer == .payUpFront)
        && subscription.isIntroductory
      case .paid: subscription.state == .subscribed && subscription.offer == nil
      case .inGracePeriod: subscription.state == .inGracePeriod
      case .inBillingRetryPeriod, .onHold: subscription.state == .inBillingRetryPeriod
      case .paused: subscription.state == .paused
      case .expired: subscription.state == .expired
      case .revoked: subscription.state == .revoked
      }
    }
  }

  package struct Step: Sendable, Hashable {
    package var line: Int
    package var text: String
    package var command: Command

    package init(line: Int, text: String, command: Command) {
      self.line = line
      self.text = text
      self.command = command
    }
  }

  package var file: String
  package var steps: [Step]

  package init(file: String, steps: [Step]) {
    self.file = file
    self.steps = steps
  }

  /// Whether the first step that acts on the app or looks at its screen or events registers a
  /// placement: the steps before it only set the world up (status, user, override, advance, the
  /// store, faults) or check the status. `play` then starts on the home screen, since a paywall
  /// already up would make that placement fail (`paywallAlreadyPresented`).
  package var startsWithPlacement: Bool {
    for step in steps {
      switch step.command {
      case .placement: return true
      case .status, .user, .override, .advance, .store, .notifications, .fail, .failPlay, .latency, .drop, .resize, .answer, .expectStatus, .expectSubscription, .expectSubscriptionOffer: continue
      case .press, .open, .call, .relaunch, .reinstall, .survey, .background, .foreground, .deepLink, .expectEvent, .expectNoEvent, .expectScreen, .expectNoScreen, .screenshot: return false
      }
    }
    return false
  }

  package static let storeCommands = ["buy", "approve", "decline", "refund", "cancel", "revoke", "upgrade", "downgrade", "crossgrade",
                              "billing-issue", "resolve-billing", "family-share", "family-revoke", "price-increase",
                              "accept-price", "decline-price", "interrupt", "resolve-interrupted", "redeem", "test-card", "acknowledge", "pause", "resume", "replace", "replacement-mode"]
  package static let commands = ["press", "advance", "status", "placement", "user", "override", "open", "call", "relaunch", "reinstall", "notifications"] + storeCommands
    + ["fail", "latency", "drop", "resize", "answer", "expect", "screenshot", "survey", "background", "foreground", "deeplink"]

  /// `survey answer OPTION` / `survey other TEXT…` / `survey close`.
  package enum SurveyStep: Sendable, Hashable {
    /// An option's id, or its title (written in double quotes).
    case answer(String)
    case other(String)
    case close
  }

  /// The line up to a `#` that starts a comment: at the line's start or after a space or tab,
  /// and not inside double quotes (`expect screen "Plan #1"` keeps its `#`). Inside quotes a
  /// backslash escapes the next character, so `\"` does not end them (an `answer` message is a
  /// JSON string).
  package static func stripComment(_ line: Substring) -> Substring {
    if isASCII(line) { return line[..<commentStart(line.utf8, ascii: { $0 })] }
    // `asciiValue` is nil past ASCII; 0x80 matches none of the bytes looked for.
    return line[..<commentStart(line, ascii: { $0.asciiValue ?? 0x80 })]
  }

  /// Where `stripComment` cuts `units`, each read as its ASCII byte: the line's end when no
  /// comment starts.
  private static func commentStart<Units: Collection>(_ units: Units, ascii: (Units.Element) -> UInt8) -> String.Index
  where Units.Index == String.Index {
    var previous: UInt8 = 0x20
    var quoted = false
    var escaped = false
    for index in units.indices {
      let unit = ascii(units[index])
      if escaped {
        escaped = false
        previous = unit
        continue
      }
      if quoted && unit == 0x5C { escaped = true }
      if unit == 0x22 { quoted.toggle() }
      if unit == 0x23, !quoted, previous == 0x20 || previous == 0x09 { return index }
      previous = unit
    }
    return units.endIndex
  }

  /// `text`'s lines, split where Swift's characters split at "\n" and "\r\n": every "\n" byte is
  /// a "\n" character or the end of a "\r\n" one. Read in bytes, not in characters.
  package static func lines(_ text: String) -> [Substring] {
    var lines: [Substring] = []
    let utf8 = text.utf8
    var start = utf8.startIndex
    var index = start
    while index != utf8.endIndex {
      let next = utf8.index(after: index)
      if utf8[index] == 0x0A {
        var end = index
        if end != start, utf8[utf8.index(before: end)] == 0x0D { end = utf8.index(before: end) }
        lines.append(text[start..<end])
        start = next
      }
      index = next
    }
    lines.append(text[start...])
    return lines
  }

  /// `line` split at spaces, empty words dropped.
  package static func words(_ line: String) -> [String] {
    if isASCII(line) { return line.utf8.split(separator: 0x20).map { String(decoding: $0, as: UTF8.self) } }
    return line.split(separator: " ").map(String.init)
  }

  /// Where each word of `line` starts (0-based, in characters), for error columns and for
  /// `expect screen TEXT`.
  package static func wordStarts(_ line: String) -> [Int] {
    isASCII(line) ? wordStarts(line.utf8, isSpace: { $0 == 0x20 }) : wordStarts(line, isSpace: { $0 == " " })
  }

  private static func wordStarts<Units: Sequence>(_ units: Units, isSpace: (Units.Element) -> Bool) -> [Int] {
    var starts: [Int] = []
    var inWord = false
    for (i, unit) in units.enumerated() {
      if !isSpace(unit) && !inWord { starts.append(i) }
      inWord = !isSpace(unit)
    }
    return starts
  }

  /// True when `text` is ASCII. A script's line is then read in bytes, several times faster than in
  /// characters and the same: each ASCII byte is a character (but "\r\n", and a line holds no "\n").
  private static func isASCII(_ text: some StringProtocol) -> Bool {
    text.utf8.allSatisfy { $0 < 0x80 }
  }

  /// Where the first argument of `line` starts (0-based).
  package static func column(ofArgumentIn line: String) -> Int {
    let starts = wordStarts(line)
    return starts.count > 1 ? starts[1] : line.count
  }

  /// Parses a script, reporting every bad line as `FILE:LINE:COL: error: …`. The `advance`
  /// lines together may not take the clock from its start (`SimulatedTimeSource.defaultStart`)
  /// past the last date a ledger holds (`LedgerFile.latestDate`).
  package static func parse(_ text: String, file: String) throws(ValidationFailure) -> PlayScript {
    var steps: [Step] = []
    var problems: [Diagnostic] = []
    var clock = SimulatedTimeSource.defaultStart
    // A script saved with CRLF line ends is split on them too.
    for (index, rawLine) in lines(text).enumerated() {
      let lineNumber = index + 1
      // A comment starts with `#` at the line's start or after a space, so a value such as an
      // experiment id (`unmatched_audience_daily_offer#0=OCCURRENCE`) keeps its `#`.
      let withoutComment = Self.stripComment(rawLine)
      let line = UntrustedText.sanitize(String(withoutComment)).trimmingSpaces()
      guard !line.isEmpty else { continue }
      let indent = rawLine.prefix { $0 == " " || $0 == "\t" }.count
      do throws(LineError) {
        let command = try command(line)
        let moved: ClockDistance? = switch command {
        case .advance(let distance), .background(let distance?): distance
        default: nil
        }
        if let distance = moved {
          clock = distance.end(from: clock)
          if clock > LedgerFile.latestDate {
            throw LineError(message: "\(quoting: line) would move the clock to \(StoreDates.format(clock)), past \(StoreDates.format(LedgerFile.latestDate)), the last date a ledger holds (the script's clock starts at \(StoreDates.format(SimulatedTimeSource.defaultStart))); advance less",
                            column: Self.column(ofArgumentIn: line))
          }
        }
        steps.append(Step(line: lineNumber, text: line, command: command))
      } catch {
        problems.append(Diagnostic(file: file, location: SourceLocation(line: lineNumber, column: indent + 1 + error.column),
                                   severity: .error, message: error.message, path: nil))
      }
    }
    guard problems.isEmpty else { throw ValidationFailure(problems) }
    return PlayScript(file: file, steps: steps)
  }

  /// `--keys "down down enter"`: one `press` line.
  package static func keys(_ text: String) throws(ValidationFailure) -> PlayScript {
    let press = "press "
    do {
      return try parse(press + text, file: "--keys")
    } catch {
      // The columns are the keys' within the option's value, not within the line it becomes.
      throw ValidationFailure(error.diagnostics.map { diagnostic in
        var diagnostic = diagnostic
        diagnostic.location.column = max(1, diagnostic.location.column - press.count)
        return diagnostic
      })
    }
  }

  package struct LineError: Error {
    package var message: String
    /// 0-based column in the trimmed line.
    package var column: Int
  }

  /// `"Go Premium"` → `Go Premium`: the text of `expect screen` may be quoted as a whole (the rest
  /// of the line is the text either way; quotes inside it stay).
  package static func unquoted(_ text: String) -> String {
    guard text.count >= 2, text.first == "\"", text.last == "\"" else { return text }
    return String(text.dropFirst().dropLast())
  }

}
