#if canImport(FoundationEssentials) && !PAYWALL_FULL_FOUNDATION
import FoundationEssentials
#else
import Foundation
#endif

enum RegexAssertion: Sendable, Hashable {
  enum Word: Sendable, Hashable { case boundary, notBoundary, start, end, startHalf, endHalf }
  case textStart, textEnd, lineStart, lineEnd
  /// A word assertion; `unicode` false (the `-u` flag) knows only ASCII word characters.
  case word(Word, unicode: Bool)

  func holds(_ s: [Unicode.Scalar], at p: Int) -> Bool {
    switch self {
    case .textStart: return p == 0
    case .textEnd: return p == s.count
    case .lineStart: return p == 0 || s[p - 1] == "\n"
    case .lineEnd: return p == s.count || s[p] == "\n"
    case .word(let kind, let unicode):
      func isWord(_ c: Unicode.Scalar) -> Bool {
        unicode ? UnicodeTables.isWord(c) : (c.isASCII && (c.properties.isAlphabetic || c.properties.numericType != nil || c == "_"))
      }
      let before = p > 0 && isWord(s[p - 1])
      let after = p < s.count && isWord(s[p])
      switch kind {
      case .boundary: return before != after
      case .notBoundary: return before == after
      case .start: return !before && after
      case .end: return before && !after
      case .startHalf: return !before
      case .endHalf: return !after
      }
    }
  }
}

enum Instruction: Sendable {
  case scalar(UInt32)
  /// Any of `scalarTables[n]` (a letter in every case).
  case scalars(Int)
  /// `sets[n]`.
  case set(Int)
  case any(newline: Bool)
  case split(Int, Int)
  case jump(Int)
  case assert(RegexAssertion)
  case match
}

/// The program being built, with the tables its instructions point into.
struct RegexCompiler {
  var program: [Instruction] = []
  var scalarTables: [[Unicode.Scalar]] = []
  var sets: [ScalarSet] = []
}

/// A class of scalars as sorted, disjoint, non-adjacent ranges: merged when the pattern is parsed,
/// case folding and negation applied there, so a test is one binary search however the class was
/// written (`[\pL\pL…]` ten thousand times is `\pL`).
struct ScalarSet: Sendable, Hashable {
  private(set) var ranges: [ClosedRange<UInt32>]

  init(_ ranges: [ClosedRange<UInt32>]) {
    self.ranges = Self.merged(ranges)
  }

  /// Sorts and merges overlapping and touching ranges.
  static func merged(_ input: [ClosedRange<UInt32>]) -> [ClosedRange<UInt32>] {
    guard input.count > 1 else { return input }
    let sorted = input.sorted { $0.lowerBound < $1.lowerBound }
    var out: [ClosedRange<UInt32>] = []
    out.reserveCapacity(sorted.count)
    for range in sorted {
      if let last = out.last, range.lowerBound <= last.upperBound + 1 {
        if range.upperBound > last.upperBound { out[out.count - 1] = last.lowerBound...range.upperBound }
      } else {
        out.append(range)
      }
    }
    return out
  }

  func contains(_ c: Unicode.Scalar) -> Bool {
    let v = c.value
    var low = 0
    var high = ranges.count
    while low < high {
      let mid = (low + high) / 2
      if ranges[mid].upperBound < v { low = mid + 1 } else { high = mid }
    }
    return low < ranges.count && ranges[low].lowerBound <= v
  }

  /// The work of one test, in budget steps: 1 + log2 of the ranges.
  var cost: Int { 1 + (Int.bitWidth - ranges.count.leadingZeroBitCount) }

  /// Every scalar not in the set.
  var inverted: ScalarSet {
    var gaps: [ClosedRange<UInt32>] = []
    var next: UInt32 = 0
    for range in ranges {
      if range.lowerBound > next { gaps.append(next...(range.lowerBound - 1)) }
      next = range.upperBound + 1
    }
    if next <= 0x10FFFF { gaps.append(next...0x10FFFF) }
    var set = ScalarSet([])
    set.ranges = gaps
    return set
  }

  /// The set with every scalar's simple case variants added (Rust's simple case folding), ASCII
  /// letters only when `unicode` is false (the `-u` flag).
  func caseFolded(unicode: Bool) -> ScalarSet {
    let tables = UnicodeTables.shared
    var added: [ClosedRange<UInt32>] = []
    for range in ranges {
      var k = tables.firstFoldEntry(atLeast: range.lowerBound)
      while k < tables.foldScalars.count, tables.foldScalars[k] <= range.upperBound {
        if unicode || tables.foldScalars[k] < 0x80 {
          for member in tables.orbits[tables.foldOrbits[k]] where unicode || member < 0x80 { added.append(member...member) }
        }
        k += 1
      }
    }
    return added.isEmpty ? self : ScalarSet(ranges + added)
  }

  /// Whether a scalar outside ASCII is in the set.
  var reachesPastASCII: Bool { (ranges.last?.upperBound ?? 0) >= 0x80 }
}
