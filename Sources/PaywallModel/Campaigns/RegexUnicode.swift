#if canImport(FoundationEssentials) && !PAYWALL_FULL_FOUNDATION
import FoundationEssentials
#else
import Foundation
#endif

/// The Unicode tables the classes are made of, read from the standard library's Unicode data once
/// a process, the first time a pattern names a Unicode class or folds case: a scan of every
/// scalar but planes 4 to 13, about 0.1 s in a debug build (the price of one binary search per class test later).
struct UnicodeTables: Sendable {
  static let shared = UnicodeTables()

  let categories: [Unicode.GeneralCategory: [ClosedRange<UInt32>]]
  /// Rust's `\w`: `[\p{Alphabetic}\p{M}\d\p{Pc}\p{Join_Control}]`.
  let word: [ClosedRange<UInt32>]
  /// Rust's `\s`: `\p{White_Space}`.
  let space: [ClosedRange<UInt32>]
  /// Every scalar that has another case form, sorted, with the index of its orbit (the scalars
  /// its simple case mappings connect it to, itself included).
  let foldScalars: [UInt32]
  let foldOrbits: [Int]
  let orbits: [[UInt32]]

  private init() {
    var categories: [Unicode.GeneralCategory: [ClosedRange<UInt32>]] = [:]
    var word: [ClosedRange<UInt32>] = []
    var space: [ClosedRange<UInt32>] = []
    var cased: [(UInt32, [UInt32])] = []
    func extend(_ list: inout [ClosedRange<UInt32>], _ v: UInt32) {
      if let last = list.last, last.upperBound + 1 == v { list[list.count - 1] = last.lowerBound...v } else { list.append(v...v) }
    }
    var runCategory = Unicode.GeneralCategory.control
    var runStart: UInt32 = 0
    var next: UInt32 = 0
    while next <= 0x10FFFF {
      var v = next
      next += 1
      // Planes 4 to 13 have no assigned scalar in any Unicode version yet: one unassigned run,
      // which halves the scan.
      if v == 0x40000 {
        categories[runCategory, default: []].append(runStart...(v - 1))
        categories[.unassigned, default: []].append(0x40000...0xDFFFF)
        v = 0xE0000
        next = v + 1
        runCategory = Unicode.Scalar(v)!.properties.generalCategory
        runStart = v
      }
      guard let c = Unicode.Scalar(v) else { continue }  // surrogates
      let p = c.properties
      let category = p.generalCategory
      if category != runCategory || v == 0 {
        if v > 0 { categories[runCategory, default: []].append(runStart...(v - 1)) }
        runCategory = category
        runStart = v
      }
      switch category {
      case .unassigned, .privateUse, .surrogate: continue
      case .decimalNumber, .nonspacingMark, .spacingMark, .enclosingMark, .connectorPunctuation: extend(&word, v)
      default: if p.isAlphabetic || p.isJoinControl { extend(&word, v) }
      }
      if p.isWhitespace { extend(&space, v) }
      if p.changesWhenCaseMapped {
        cased.append((v, CaseFolding.variants(of: c).map(\.value)))
      }
    }
    categories[runCategory, default: []].append(runStart...0x10FFFF)
    // The surrogates are no scalars: a category's run across them closes at 0xD7FF and reopens.
    for (key, list) in categories { categories[key] = ScalarSet.merged(list) }
    // Orbits: scalars joined by any simple mapping, in either direction.
    var parent: [UInt32: UInt32] = [:]
    func root(_ v: UInt32) -> UInt32 {
      var r = v
      while let up = parent[r], up != r { r = up }
      return r
    }
    for (scalar, variants) in cased {
      for variant in variants where variant != scalar {
        let a = root(scalar)
        let b = root(variant)
        if a != b { parent[max(a, b)] = min(a, b) }
      }
    }
    var members: [UInt32: [UInt32]] = [:]
    for (scalar, variants) in cased {
      for v in [scalar] + variants { members[root(v), default: []].append(v) }
    }
    var orbits: [[UInt32]] = []
    for list in members.values {
      let unique = Array(Set(list)).sorted()
      if unique.count > 1 { orbits.append(unique) }
    }
    var entries: [(UInt32, Int)] = []
    for (index, orbit) in orbits.enumerated() {
      for member in orbit { entries.append((member, index)) }
    }
    entries.sort { $0.0 < $1.0 }
    self.categories = categories
    self.word = word
    self.space = space
    self.orbits = orbits
    foldScalars = entries.map(\.0)
    foldOrbits = entries.map(\.1)
  }

  func firstFoldEntry(atLeast v: UInt32) -> Int {
    var low = 0
    var high = foldScalars.count
    while low < high {
      let mid = (low + high) / 2
      if foldScalars[mid] < v { low = mid + 1 } else { high = mid }
    }
    return low
  }

  /// Rust's Unicode `\w`, for word boundaries: the same scalars as `word`.
  static func isWord(_ c: Unicode.Scalar) -> Bool {
    let p = c.properties
    if p.isAlphabetic || p.isJoinControl { return true }
    switch p.generalCategory {
    case .decimalNumber, .nonspacingMark, .spacingMark, .enclosingMark, .connectorPunctuation: return true
    default: return false
    }
  }
}

enum CaseFolding {
  /// `c` and its simple upper, lower and title case forms.
  static func variants(of c: Unicode.Scalar) -> [Unicode.Scalar] {
    var all: [Unicode.Scalar] = [c]
    let p = c.properties
    for mapping in [p.lowercaseMapping, p.uppercaseMapping, p.titlecaseMapping] {
      let scalars = mapping.unicodeScalars
      if scalars.count == 1, let only = scalars.first, !all.contains(only) { all.append(only) }
    }
    return all
  }

  /// The scalars `c` matches under `(?i)`: its orbit (ASCII letters only without `u`).
  static func orbit(of c: Unicode.Scalar, unicode: Bool) -> [Unicode.Scalar] {
    if !unicode && !c.isASCII { return [c] }
    let folded = ScalarSet([c.value...c.value]).caseFolded(unicode: unicode)
    return folded.ranges.flatMap { $0.compactMap(Unicode.Scalar.init) }
  }
}
