import Foundation
import Testing
import PaywallModel

/// What Rust's `regex` (the SDK's `matches()`, through Superscript's CEL) refuses is refused when
/// the filter is parsed, at the pattern's column: before, the C library's regular expressions
/// took back-references (12.6 s a registration) and expanded `{n}` when they compiled (8 GB).
struct AudienceRegexRefusalTests {
  /// `user.name.matches("PATTERN")`, the pattern's backslashes written as a CEL string writes them.
  static func filter(_ pattern: String) -> String {
    "user.name.matches(\"" + pattern.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\")"
  }

  @Test(arguments: [
    (#"(a)\1"#, "backreferences are not supported"),
    (#"(.*)(.*)(.*)(.*)(.*)(.*)(.*)(.*)(.*)\9\8\7\6\5\4\3\2\1"#, "backreferences are not supported"),
    (#"(?P<x>a)(?P=x)"#, "backreferences are not supported"),
    (#"(?<x>a)\k<x>"#, "backreferences are not supported"),
    (#"a(?=b)"#, "look-around, including look-ahead and look-behind, is not supported"),
    (#"a(?!b)"#, "look-around, including look-ahead and look-behind, is not supported"),
    (#"(?<=a)b"#, "look-around, including look-ahead and look-behind, is not supported"),
    (#"(?<!a)b"#, "look-around, including look-ahead and look-behind, is not supported"),
    (#"(a{32767}){32767}"#, "more than the 100000 a regular expression may have"),
    (#"\w{1000}{1000}"#, "a repetition cannot be repeated"),
    (#"(x{1000}){1000}"#, "more than the 100000 a regular expression may have"),
    (#"a**"#, "a repetition cannot be repeated"),
    (#"*a"#, "repetition operator missing expression"),
    (#"(ab"#, "unclosed group"),
    (#"ab)"#, "unopened group"),
    (#"[ab"#, "unclosed character class"),
    (#"a{2,1}"#, "invalid repetition count range"),
    (#"a{x}"#, "repetition quantifier expects a valid decimal"),
    (#"\q"#, "unrecognized escape sequence"),
    (#"\0"#, "octal escapes are not supported"),
    (#"(?z)a"#, "unrecognized flag"),
    (#"(?-u:\W)"#, "can match invalid UTF-8"),
    (#"(?-u:.)"#, "can match invalid UTF-8"),
    (#"(?-u)[^a]"#, "can match invalid UTF-8"),
    (#"(?-u)\xFF"#, "can match invalid UTF-8"),
    (#"(?-u)\pL"#, "Unicode classes need the u flag"),
    (#"\b{begin}"#, "unrecognized word boundary"),
    (#"\b{start"#, "unclosed word boundary"),
    (#"\w{30000}"#, "instructions"),
  ])
  func aPatternRustRefusesIsRefusedWhenTheFilterIsParsed(pattern: String, reason: String) {
    let text = Self.filter(pattern)
    do {
      _ = try AudienceFilter(parsing: text)
      Issue.record("\(text) parsed")
    } catch {
      #expect(error.message.contains(reason), "\(error.message)")
      #expect(error.message.hasPrefix("matches(): "), "\(error.message)")
      // At the pattern's string literal.
      #expect(error.offset == 18, "\(error.offset)")
    }
  }

  @Test(arguments: [
    #"^[a-z]+@acme\.com$"#, #"(?i)PRO"#, #"\d{3}-\d{4}"#, #"^\p{Lu}\w*\s"#, #"[[:alpha:]]+"#, #"(?P<year>\d{4})"#,
    #"a{,3}"#, #"\bword\b"#, #"x|y|z"#, #"\x41\u{1F600}"#, #"[\-\]]"#, #"(?s:.)"#, #"a*?b+?"#,
    #"(?u)\w"#, #"(?-u:\w)"#, #"(?i-u)[a-z]"#, #"(?-u)\x41é"#, #"\b{start}a\b{end}"#, #"\b{start-half}a\b{end-half}"#, #"()*"#,
    #"(?:)+"#,
  ])
  func whatRustAcceptsParses(pattern: String) throws {
    _ = try AudienceFilter(parsing: Self.filter(pattern))
  }

  /// A project with such a filter does not load: the error names the file, line and column.
  @Test func aBackReferenceInAProjectIsALoadErrorAtItsColumn() throws {
    let result = try CampaignTests.project(#"[{"placement": "p", "audiences": [{"filter": "user.name.matches(\"(a)\\\\1\")", "paywall": "a"}]}]"#)
    #expect(result.project == nil)
    #expect(CampaignTests.messages(result) == ["5:78: filter: matches(): backreferences are not supported (Rust's regex, which the SDK uses, has none)"])
  }
}
