import Foundation
import PaywallTesting
import Testing
@testable import PaywallTUI

/// Brackets nested past Rust's limit are an error, never a stack overflow: before, the class
/// parser recursed once per `[` with no limit, so a filter `matches("[[[…a]]]")` killed `validate`
/// with SIGSEGV when parsed deep enough, and a pattern read from a user attribute killed `explain`
/// when it ran. Run through the real binary, so the old crash fails the test instead of ending
/// the test process.
struct AudienceRegexNestingTests {
  static func project(filter: String) throws -> String {
    let directory = Scratch.root.appendingPathComponent("paywall-tui-nest-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    for file in ["catalog.json", "onboarding.json"] {
      try FileManager.default.copyItem(atPath: Fixtures.demoDirectory + "/" + file, toPath: directory + "/" + file)
    }
    let app = """
      {"name": "Nest", "catalog": "catalog.json", "paywalls": ["onboarding.json"],
       "campaigns": [{"placement": "nest", "audiences": [{"filter": "\(filter)", "paywall": "onboarding"}]}]}
      """
    try app.write(toFile: directory + "/app.json", atomically: true, encoding: .utf8)
    return directory
  }

  /// `depth` brackets around an `a`.
  static func nested(_ depth: Int) -> String {
    String(repeating: "[", count: depth) + "a" + String(repeating: "]", count: depth)
  }

  /// A project's strings are capped at 4,096 scalars, so a filter nests at most 2,000 deep: past
  /// Rust's 250, it was accepted; through the API (`AudienceFilter(parsing:)`) a hundred thousand
  /// overflowed the stack (`AudienceRegexTests.bracketsNestedPastTheLimitAreRefusedAtTheirColumn`).
  @Test func deeplyNestedBracketsInAFilterAreALoadError() throws {
    let directory = try Self.project(filter: #"user.name.matches(\"\#(Self.nested(2_000))\")"#)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let output = try PaywallBinary.run(["validate", directory])
    // 1 is validate's "the project has errors"; a crash is a signal (11) or 139.
    #expect(output.status == 1, "status \(output.status): \(output.stderr.prefix(300))")
    // At the 251st '[': the pattern's string starts at column 18 of the filter, the brackets one further.
    #expect(output.stdout.contains("matches(): the pattern nests deeper than 250 levels") || output.stderr.contains("matches(): the pattern nests deeper than 250 levels"),
            "\(output.stdout.prefix(300)) \(output.stderr.prefix(300))")
  }

  @Test func deeplyNestedBracketsFromAValueAreAnEvaluationError() throws {
    let directory = try Self.project(filter: "user.name.matches(user.pattern)")
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let state = Scratch.root.appendingPathComponent("nest-state-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: state) }
    // An argument may be at most 128 KiB on Linux: 60,000 deep is far past the limit and any stack.
    let output = try PaywallBinary.run(["explain", directory, "nest", "--user", "name=a", "--user", "pattern=" + Self.nested(60_000),
                                           "--state-dir", state])
    #expect(output.status == 0, "status \(output.status): \(output.stderr.prefix(300))")
    #expect(output.stdout.contains("→ skipped (noAudienceMatch)"), "\(output.stdout.prefix(600))")
  }

  /// 250 deep is Rust's limit and still a pattern.
  @Test func nestingUpToTheLimitIsAccepted() throws {
    let directory = try Self.project(filter: #"user.name.matches(\"\#(Self.nested(249))\")"#)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let output = try PaywallBinary.run(["validate", directory])
    #expect(output.status == 0, "\(output.stdout.prefix(300)) \(output.stderr.prefix(300))")
  }
}
