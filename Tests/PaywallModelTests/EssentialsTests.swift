import Foundation
@testable import PaywallModel
import Synchronization
import Testing

/// What replaced Foundation calls in Sources does what those calls did: each helper
/// against the Foundation API it replaces, on inputs that reach the edges.
@Suite("essentials", .serialized)
struct EssentialsTests {
  @Test func medium_dates_are_what_DateFormatter_printed_for_every_locale_of_the_table() {
    var differences: [String] = []
    // The first and the 29th (or last) of every month of a leap year, and a few far days. (One
    // formatter per locale, few calls: ICU's DateFormatter has crashed under the parallel tests.)
    let days = (1...12).flatMap { [CivilDate.days(year: 2028, month: $0, day: 1), CivilDate.days(year: 2028, month: $0, day: min(29, CivilDate.days(inMonth: $0, year: 2028)))] }
      + [CivilDate.days(year: 1970, month: 1, day: 1), CivilDate.days(year: 2099, month: 12, day: 31), CivilDate.days(year: 2026, month: 1, day: 8)]
    for (locale, format) in DateFormat.table.sorted(by: { $0.key < $1.key }) {
      let formatter = DateFormatter()
      formatter.dateStyle = .medium
      formatter.timeStyle = .none
      formatter.locale = Locale(identifier: locale)
      formatter.timeZone = TimeZone(identifier: "UTC")
      for day in days {
        let date = Date(timeIntervalSince1970: Double(day) * 86_400 + 3_600 * 23)
        let ours = format.format(date)
        let theirs = formatter.string(from: date)
        if ours != theirs { differences.append("\(locale) \(date): \(ours) vs \(theirs)") }
      }
    }
    #expect(differences.isEmpty, "\(differences.count): \(differences.prefix(10))")
  }

  /// NSString's path methods, by Apple's documented examples. (Not against NSString itself: on
  /// this toolchain it traps on `"a".deletingLastPathComponent` and answers
  /// `appendingPathComponent` differently from one run to the next.)
  @Test func path_helpers_do_what_NSString_documents() {
    let last: [(String, String)] = [("/tmp/scratch.tiff", "scratch.tiff"), ("/tmp/scratch", "scratch"), ("/tmp/", "tmp"),
                                    ("scratch///", "scratch"), ("/", "/"), ("", ""), ("a", "a")]
    for (path, expected) in last { #expect(path.lastPathComponent == expected, "lastPathComponent of \(path)") }
    let deleting: [(String, String)] = [("/tmp/scratch.tiff", "/tmp"), ("/tmp/lock/", "/tmp"), ("/tmp/", "/"), ("/tmp", "/"),
                                        ("/", "/"), ("scratch.tiff", ""), ("a/", ""), ("a/b", "a"), ("", "")]
    for (path, expected) in deleting { #expect(path.deletingLastPathComponent == expected, "deletingLastPathComponent of \(path)") }
    let appending: [(String, String, String)] = [("/tmp", "scratch.tiff", "/tmp/scratch.tiff"), ("/tmp/", "scratch.tiff", "/tmp/scratch.tiff"),
                                                 ("/", "scratch.tiff", "/scratch.tiff"), ("", "scratch.tiff", "scratch.tiff"),
                                                 ("a", "b/c", "a/b/c"), ("state", ".local/state", "state/.local/state"), ("a/", "", "a"),
                                                 ("//net", "x", "//net/x"), ("///a", "b", "/a/b"), ("a//b", "c//", "a/b/c"), ("/", "", "/"),
                                                 ("", "", ""), ("é//dir", "f/", "é/dir/f"), ("//é", "x", "//é/x")]
    for (path, component, expected) in appending {
      #expect(path.appendingPathComponent(component) == expected, "\(path) + \(component)")
    }
    let extensions: [(String, String)] = [("/tmp/scratch.tiff", "/tmp/scratch"), ("/tmp/", "/tmp"), ("scratch.bundle/", "scratch"),
                                          ("scratch..tiff", "scratch."), (".tiff", ".tiff"), ("/", "/"), ("config.json", "config")]
    for (path, expected) in extensions { #expect(path.deletingPathExtension == expected, "deletingPathExtension of \(path)") }
    for (path, expected) in [("/a/./b/../c", "/a/c"), ("/tmp//y/", "/tmp/y"), ("/a/b/..", "/a"), ("rel/./a", "rel/a"), ("/", "/")] {
      #expect(path.standardizingPath == expected, "standardizingPath of \(path)")
    }
  }

  @Test func replacing_and_finding_text_compare_scalars_as_NSString_did() {
    let cases: [(String, String, String)] = [("a\r\nb", "\n", "\\n"), ("a-b-c", "-", "\\-"), ("héé", "é", "e"), ("", "x", "y"),
                                             ("aaa", "aa", "b"), ("it's", "'", "'\\''"), ("e\u{301}", "e", "E")]
    for (text, target, replacement) in cases {
      #expect(text.replacingOccurrences(of: target, with: replacement)
        == (text as NSString).replacingOccurrences(of: target, with: replacement), "\(text) \(target)")
    }
    let message = "unknown 'x'; did you mean 'y'? or did you mean 'z'?"
    let last = message.range(of: "did you mean '", backwards: true)!
    #expect(message[last.upperBound...] == "z'?")
    #expect(message.range(of: "'?", range: message.startIndex..<message.endIndex).map { message[$0.lowerBound...] } == "'? or did you mean 'z'?")
    #expect(message.range(of: "nowhere") == nil)
  }

  @Test func decimal_rounding_is_NSDecimalRound() {
    let modes: [(DecimalRounding, NSDecimalNumber.RoundingMode)] = [(.plain, .plain), (.down, .down), (.up, .up), (.bankers, .bankers)]
    for text in ["0", "1.005", "-1.005", "2.5", "3.5", "-2.5", "9.999", "-9.999", "0.125", "123456789.123456789", "1.2", "-0.001", "99.995", "59.99"] {
      for scale in [0, 1, 2, 3] {
        for (ours, theirs) in modes {
          var input = Decimal(string: text)!
          var expected = Decimal()
          NSDecimalRound(&expected, &input, scale, theirs)
          #expect(Decimal(string: text)!.rounded(scale, ours) == expected, "\(text) to \(scale) \(theirs)")
        }
      }
    }
  }

  /// `plainText` keeps each text it writes; whether written or kept, it must be `description`'s,
  /// for every sign, size and exponent, and after more values than it keeps. `integerDigits`,
  /// read from it, must be the significand's digits.
  @Test func decimal_plain_text_is_description() {
    var generator = SystemRandomNumberGenerator()
    var decimals = ["0", "0.00", "1", "59.99", "4.90", "0.005", "-0.5", "1e3", "-12.5e-7", "18446744073709551616", "-0.00001",
                    "99999999999999999999999.9", "9223372036854775807", "9223372036854775808"].map { Decimal(string: $0)! }
    decimals += [Decimal.nan, Decimal(59.99), Decimal(12) / Decimal(52), Decimal(sign: .minus, exponent: 3, significand: 12)]
    for _ in 0..<5_000 {
      let significand = Decimal(UInt64.random(in: 0...(Bool.random(using: &generator) ? 99_999 : UInt64.max), using: &generator))
      decimals.append(Decimal(sign: Bool.random(using: &generator) ? .plus : .minus, exponent: Int.random(in: -30...30, using: &generator),
                              significand: significand))
    }
    // Each value and its negation: a text kept for one must not answer for the other.
    decimals += decimals.map { -$0 }
    for decimal in decimals + decimals.prefix(200) + decimals.suffix(200) {
      #expect(decimal.plainText == decimal.description, "\(decimal.description)")
      guard decimal >= 0, !decimal.isNaN else { continue }
      let expected = decimal.isZero ? (0, 0) : Int(decimal.significand.description).map { ($0, decimal.exponent) }
      #expect(decimal.integerDigits?.digits == expected?.0 && decimal.integerDigits?.exponent == expected?.1, "\(decimal.description)")
    }
  }

  @Test func cFormat_prints_as_String_format_did() {
    for value in [0.0, 1.5, 2.675, 1e15, 123.456, -0.0005, 1234567.891] {
      for format in ["%.3f", "%.1f s", "%gs", "%g s", "%.2f"] {
        #expect(cFormat(format, value) == String(format: format, value), "\(format) \(value)")
      }
    }
    #expect(cFormat("%04X", UInt32(0x1F600)) == String(format: "%04X", UInt32(0x1F600)))
    #expect(cFormat("%.3f", 1e300).count > 300, "a long result is not cut at the first buffer")
  }

  /// `fixedPoint` prints what `printf("%.Nf")` prints: for dates, for values exactly halfway
  /// between two results (k/16, k/1024: rounded half to even), for negatives and negative zero,
  /// for the smallest and the largest it writes itself, and past those (through `cFormat`).
  @Test func fixedPoint_prints_as_printf() {
    var generator = SystemRandomNumberGenerator()
    var values: [Double] = [0, -0.0, 1, 0.5, 1.5, 2.5, 0.0625, 0.1875, -0.0625, 0.0005, 0.0015, 1_767_225_600.123, 9.9995, 999.9995,
                            .leastNonzeroMagnitude, .leastNormalMagnitude, 1e15, 1.7e16, 1e17, 2e32, 1e300, .infinity, -.infinity, .nan,
                            Double(1 << 53), Double(1 << 53) + 2]
    for _ in 0..<3_000 {
      values.append(Double.random(in: 0..<2_000_000_000, using: &generator).rounded(.down) + Double(Int.random(in: 0..<1000, using: &generator)) / 1000)
      values.append(Double(Int.random(in: -100_000...100_000, using: &generator)) / [16, 1024, 65_536, 2][Int.random(in: 0..<4, using: &generator)])
      values.append(Double(bitPattern: UInt64.random(in: 0...UInt64.max, using: &generator)))
    }
    for value in values {
      for places in 0...6 {
        #expect(fixedPoint(value, places: places) == cFormat("%.\(places)f", value), "\(value) to \(places) places")
      }
    }
  }

  @Test func conditions_wake_and_time_out() {
    let condition = Condition()
    condition.lock()
    let start = Date()
    #expect(!condition.wait(until: Date().addingTimeInterval(0.05)), "no one signals: the deadline passes")
    #expect(Date().timeIntervalSince(start) >= 0.04)
    condition.unlock()
    let ready = Mutex(false)
    DetachedThread.start("test-signal") {
      condition.lock()
      ready.withLock { $0 = true }
      condition.broadcast()
      condition.unlock()
    }
    condition.lock()
    var woke = true
    while !ready.withLock({ $0 }) && woke { woke = condition.wait(until: Date().addingTimeInterval(5)) }
    condition.unlock()
    #expect(ready.withLock { $0 })
  }

  /// The shipped binary links neither Foundation nor ICU. Every module it is built from
  /// imports FoundationEssentials (or only the C library, Dispatch, Synchronization), never
  /// Foundation or FoundationInternationalization; a merge that brings one back fails here.
  @Test func shipped_sources_do_not_import_Foundation() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    var offenders: [String] = []
    var chosenCode: [String] = []
    var files = 0
    // Every Swift target under Sources (the C ones have no .swift file), so a new module is checked too.
    let modules = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Sources").path).sorted().map { "Sources/\($0)" }
    #expect(modules.count >= 7, "\(modules)")
    for module in modules {
      let base = root.appendingPathComponent(module)
      let enumerator = try #require(FileManager.default.enumerator(atPath: base.path))
      for case let name as String in enumerator where name.hasSuffix(".swift") {
        files += 1
        let text = try String(contentsOf: base.appendingPathComponent(name), encoding: .utf8)
        // Foundation may be imported only where the shipped build never compiles it: the `#else`
        // of `#if canImport(FoundationEssentials) && !PAYWALL_FULL_FOUNDATION` (macOS, and the
        // full-Foundation check build).
        var branches: [(essentials: Bool, inElse: Bool)] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
          let directive = line.trimmingCharacters(in: .whitespaces)
          if directive.hasPrefix("#if ") {
            branches.append((directive == "#if canImport(FoundationEssentials) && !PAYWALL_FULL_FOUNDATION", false))
            continue
          } else if directive.hasPrefix("#elseif") || directive == "#else" {
            if !branches.isEmpty { branches[branches.count - 1].inElse = true }
            continue
          } else if directive == "#endif" {
            _ = branches.popLast()
            continue
          }
          // The condition chooses imports and nothing else: scripts/checks.sh lets the fuzz build,
          // compiled with it, stand for the shipped code.
          if branches.last?.essentials == true, !directive.isEmpty, !directive.hasPrefix("//"),
            !directive.split(separator: " ").contains("import") {
            chosenCode.append("\(module)/\(name):\(number + 1): \(line)")
          }
          if branches.contains(where: { $0.essentials && $0.inElse }) { continue }
          let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
          guard let i = words.firstIndex(where: { $0 == "import" }), i + 1 < words.count else { continue }
          // `import Foundation`, `@preconcurrency import Foundation`, `import struct Foundation.X`…
          let imported = words[(i + 1)...].first { !["struct", "class", "enum", "func", "protocol", "typealias", "var", "let"].contains($0) }
          let top = imported?.split(separator: ".").first.map(String.init) ?? ""
          if ["Foundation", "FoundationInternationalization", "FoundationNetworking", "FoundationXML"].contains(top) {
            offenders.append("\(module)/\(name):\(number + 1): \(line)")
          }
        }
      }
    }
    #expect(files > 100)
    #expect(offenders.isEmpty, "import FoundationEssentials instead (see README, Performance): \(offenders)")
    #expect(chosenCode.isEmpty, "only imports may differ between FoundationEssentials and full Foundation: \(chosenCode)")
  }
}
