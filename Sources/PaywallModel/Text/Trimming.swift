/// Trimming without Foundation's character sets, which go through ICU: the first
/// `trimmingCharacters(in:)` in a process builds an ICU set, a noticeable part of the time to
/// first paint. Same sets as Foundation's `.whitespaces` and `.whitespacesAndNewlines`.
extension String {
  /// Without leading and trailing spaces and tabs: Unicode space separators (Zs), U+0009, and
  /// U+200B (zero width space), which Foundation's sets hold too.
  package func trimmingSpaces() -> String { self[...].trimmingSpaces() }

  /// Without leading and trailing spaces, tabs and line breaks (U+000A…U+000D, U+0085, U+2028, U+2029).
  package func trimmingSpacesAndNewlines() -> String { self[...].trimmingSpacesAndNewlines() }

  /// Without leading and trailing line breaks (as Foundation's `.newlines`).
  package func trimmingNewlines() -> String { self[...].trimming { $0.isLineBreak } }
}

extension Substring {
  /// Without leading and trailing spaces and tabs (as `String.trimmingSpaces`).
  package func trimmingSpaces() -> String {
    trimming { $0.isSpaceOrTab }
  }

  /// Without leading and trailing spaces, tabs and line breaks (as `String.trimmingSpacesAndNewlines`).
  package func trimmingSpacesAndNewlines() -> String {
    trimming { $0.isSpaceOrTab || $0.isLineBreak }
  }

  fileprivate func trimming(_ drop: (Unicode.Scalar) -> Bool) -> String {
    let scalars = unicodeScalars
    guard let first = scalars.firstIndex(where: { !drop($0) }),
          let last = scalars.lastIndex(where: { !drop($0) }) else { return "" }
    // Copied as UTF-8 in one piece. Appending the scalars to a new view, as this did, ran
    // unspecialized generic code with runtime type lookups: 5% of the start-up's perf samples.
    return String(scalars[first...last])
  }
}

extension Unicode.Scalar {
  fileprivate var isSpaceOrTab: Bool {
    value == 0x20 || value == 0x09 || (value > 0x7F && (value == 0x200B || properties.generalCategory == .spaceSeparator))
  }

  fileprivate var isLineBreak: Bool {
    (0x0A...0x0D).contains(value) || value == 0x85 || value == 0x2028 || value == 0x2029
  }
}
