/// "Did you mean …?" for misspelt keys, component types, actions, slots and template variables.
package enum Suggestions {
  /// The closest candidate within an edit distance that scales with the word, or nil.
  package static func closest(to word: String, in candidates: some Sequence<String>) -> String? {
    let lowered = Array(word.lowercased())
    var best: (String, Int)?
    for candidate in candidates {
      let limit = max(1, min(3, (max(lowered.count, candidate.count) + 2) / 4))
      // The distance is at least the difference in length: a long word (a line of garbage) is
      // dismissed without filling a table of its length times the candidate's.
      let other = Array(candidate.lowercased())
      if abs(lowered.count - other.count) > limit { continue }
      let distance = editDistance(lowered, other)
      if distance <= limit && distance < (best?.1 ?? Int.max) {
        best = (candidate, distance)
      }
    }
    return best?.0
  }

  /// `" (did you mean 'x'?)"`, or an empty string when nothing is close.
  package static func hint(for word: String, in candidates: some Sequence<String>) -> String {
    closest(to: word, in: candidates).map { "; did you mean \(quoting: $0)?" } ?? ""
  }

  /// The suggestion a message's `hint` made (`…; did you mean 'export_pdf'?` → `export_pdf`), for
  /// `validate --format json`'s `fix`; nil when the message makes none.
  package static func suggestion(in message: String) -> String? {
    guard let start = message.range(of: "did you mean '", backwards: true),
          let end = message.range(of: "'?", range: start.upperBound..<message.endIndex) else { return nil }
    return String(message[start.upperBound..<end.lowerBound])
  }

  /// Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps.
  static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous2 = [Int](repeating: 0, count: b.count + 1)
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
      current[0] = i
      for j in 1...b.count {
        let cost = a[i - 1] == b[j - 1] ? 0 : 1
        var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
        if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
          value = min(value, previous2[j - 2] + 1)
        }
        current[j] = value
      }
      (previous2, previous, current) = (previous, current, previous2)
    }
    return previous[b.count]
  }
}
