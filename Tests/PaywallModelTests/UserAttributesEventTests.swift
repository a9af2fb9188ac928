import Foundation
import PaywallModel
import Testing

/// `user_attributes` as the SDK tracks it: at every new session (`AppSessionManager.detectNewSession`)
/// and every merge of attributes (`IdentityManager.mergeUserAttributes`), with the app's install
/// date, kept across launches in the state directory.
@Suite("User attributes event")
struct UserAttributesEventTests {
  static let start = Date(timeIntervalSince1970: 1_800_000_000)

  static func userAttributes(_ effects: [PresentationEffect]) -> [PaywallEvent] {
    effects.compactMap { if case .emit(let e) = $0, e.name == .userAttributes { e } else { nil } }
  }

  @Test func aLaunchANewSessionAndEveryChangeTrackTheAttributesWithTheInstallDate() throws {
    var state = try PresenterTests.home()
    state.userAttributes = ["plan": "pro", "age": "13", "beta": "true", "$cohort": "a", "gone": "null"]
    let launched = Presenter.update(&state, .launch(firstInstall: true), now: Self.start)
    let first = try #require(Self.userAttributes(launched).first)
    let installed = JSONOutput.string("2027-01-15T08:00:00.000Z")
    // `$cohort` takes the plain key's value, and there is none: removed, as the SDK looks it up.
    #expect(first.params.map(\.0) == ["application_installed_at", "age", "beta", "plan", "applicationInstalledAt"])
    #expect(first["application_installed_at"] == installed && first["applicationInstalledAt"] == installed)
    #expect(first["age"] == .number("13") && first["beta"] == .bool(true) && first["plan"] == .string("pro"))
    #expect(state.assignments.installedAt == Self.start)
    #expect(launched.contains(.saveAssignments(state.assignments)), "the install date is kept")

    // A change tracks the merged attributes; a later day's session keeps the install date.
    let changed = Self.userAttributes(Presenter.update(&state, .setUserAttributes(["plan": "team"]), now: Self.start))
    #expect(changed.first?["plan"] == .string("team"))
    _ = Presenter.update(&state, .background, now: Self.start)
    let tomorrow = Self.start.addingTimeInterval(86_400)
    let back = Self.userAttributes(Presenter.update(&state, .foreground, now: tomorrow))
    #expect(back.first?["application_installed_at"] == installed)
    // Back within the session timeout: no new session, no event.
    _ = Presenter.update(&state, .background, now: tomorrow)
    #expect(Self.userAttributes(Presenter.update(&state, .foreground, now: tomorrow.addingTimeInterval(60))).isEmpty)
  }

  /// Keys as `IdentityLogic.mergeAttributes` treats them: one that starts with `$` takes the plain
  /// key's value; the SDK's `applicationInstalledAt` wins over the user's; the same attributes give
  /// the same event every time. Before, a user attribute named `applicationInstalledAt` stopped
  /// the app (a parameter named twice), and `$plan` beside `plan` gave either value by chance.
  @Test func keysAreMergedAsTheSDKMergesThemAndTheEventIsTheSameEveryTime() throws {
    var state = try PresenterTests.home()
    state.assignments.installedAt = Self.start
    state.userAttributes = ["applicationInstalledAt": "mine", "application_installed_at": "mine", "$plan": "a", "plan": "b",
                            "pri$ce": "1", "$only": "x"]
    let event = Presenter.userAttributesEvent(state)
    #expect(event.params.map(\.0) == ["application_installed_at", "plan", "pri$ce", "applicationInstalledAt"])
    #expect(event["plan"] == .string("b") && event["pri$ce"] == .number("1"))
    #expect(event["applicationInstalledAt"] == .string("2027-01-15T08:00:00.000Z"))
    for _ in 1...20 { #expect(Presenter.userAttributesEvent(state) == event) }
  }

  /// The install date reads back from the file as the events showed it: the nearest millisecond
  /// on both sides. Before, the first run said `…36.620Z` and every later one `…36.621Z`.
  @Test func theInstallDateShowsTheSameBeforeAndAfterItIsSaved() throws {
    try withTemporaryDirectory { directory in
      let file = AssignmentFile(directory: StateDirectory(path: directory.path))
      var state = try PresenterTests.home()
      let odd = Date(timeIntervalSince1970: 1_795_787_256.6209)
      _ = Presenter.update(&state, .launch(firstInstall: true), now: odd)
      let shown = Presenter.userAttributesEvent(state)["application_installed_at"]
      try file.save(state.assignments)
      state.assignments = file.load(userID: nil).0
      #expect(Presenter.userAttributesEvent(state)["application_installed_at"] == shown, "\(String(describing: shown))")
    }
  }

  /// A relaunch is not an install: the date stays the first launch's.
  @Test func aRelaunchKeepsTheInstallDate() throws {
    var state = try PresenterTests.home()
    _ = Presenter.update(&state, .launch(firstInstall: true), now: Self.start)
    let later = Self.start.addingTimeInterval(7 * 86_400)
    let relaunched = Presenter.update(&state, .relaunch, now: later)
    #expect(Self.userAttributes(relaunched).first?["application_installed_at"] == .string("2027-01-15T08:00:00.000Z"))
    #expect(!relaunched.contains { if case .saveAssignments = $0 { true } else { false } })
  }

  /// The install date is kept in user.json; one written before it was kept reads as none, and the
  /// next launch sets it.
  @Test func theInstallDateIsKeptInTheUserFile() throws {
    try withTemporaryDirectory { directory in
      let file = AssignmentFile(directory: StateDirectory(path: directory.path))
      var book = AssignmentBook(userID: "tester")
      book.installedAt = Self.start
      try file.save(book)
      #expect(file.load(userID: nil).0.installedAt == Self.start)

      let old = #"{"format": "paywall-tui.user", "version": 1, "userId": "tester", "assignments": {}, "occurrences": {}}"#
      try old.write(toFile: file.path, atomically: true, encoding: .utf8)
      var state = try PresenterTests.home()
      state.assignments = file.load(userID: nil).0
      #expect(state.assignments.installedAt == nil)
      let launched = Presenter.update(&state, .launch(firstInstall: false), now: Self.start)
      #expect(launched.contains(.saveAssignments(state.assignments)) && state.assignments.installedAt == Self.start)
    }
  }
}
