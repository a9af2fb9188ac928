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

/// `test --filter`: the C library's POSIX extended regular expressions, which need no ICU (nor
/// Swift's Regex, a megabyte of the binary), with `\d \D \w \W \s \S` written as POSIX
/// brackets. The pattern is the tester's own, from the command line; an audience filter's
/// `matches`, which comes from a project someone else wrote, uses `AudienceRegex` instead.
package enum PatternMatcher {
  /// Why `pattern` is not a valid expression, in the C library's words; nil when it is.
  package static func problem(in pattern: String) -> String? {
    var regex = regex_t()
    let code = regcomp(&regex, translated(pattern), REG_EXTENDED | REG_NOSUB)
    guard code != 0 else {
      regfree(&regex)
      return nil
    }
    var buffer = [CChar](repeating: 0, count: 256)
    regerror(code, &regex, &buffer, buffer.count)
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  /// Whether `pattern` matches anywhere in `text`; nil when the pattern is not a valid expression.
  package static func matches(pattern: String, in text: String) -> Bool? {
    var regex = regex_t()
    guard regcomp(&regex, translated(pattern), REG_EXTENDED | REG_NOSUB) == 0 else { return nil }
    defer { regfree(&regex) }
    // A NUL would end the C string early; such a subject cannot come from JSON text anyway.
    guard !text.utf8.contains(0) else { return nil }
    return regexec(&regex, text, 0, nil, 0) == 0
  }

  /// `\d` → `[0-9]` and the like, outside and inside brackets; every other escape is kept.
  static func translated(_ pattern: String) -> String {
    let outside: [Character: String] = [
      "d": "[0-9]", "D": "[^0-9]", "w": "[[:alnum:]_]", "W": "[^[:alnum:]_]", "s": "[[:space:]]", "S": "[^[:space:]]",
    ]
    let inside: [Character: String] = ["d": "0-9", "w": "[:alnum:]_", "s": "[:space:]"]
    var out = ""
    var inBracket = false
    var chars = pattern.makeIterator()
    while let c = chars.next() {
      if c == "\\", let next = chars.next() {
        if inBracket, let set = inside[next] {
          out += set
        } else if !inBracket, let set = outside[next] {
          out += set
        } else {
          out += "\\" + String(next)
        }
        continue
      }
      if c == "[" && !inBracket { inBracket = true } else if c == "]" && inBracket { inBracket = false }
      out.append(c)
    }
    return out
  }
}
