/// What shows of a list longer than its room: `visible` of `total` rows from `offset`, and the
/// "↑ 3 more" / "↓ 12 more" marks beside it. The help box, the debug panel, the logs, the home
/// screen's placements and a paywall's products all scroll through this one type, so they count
/// and word what is hidden alike.
package struct ScrollWindow: Sendable, Hashable {
  package let total: Int
  package let visible: Int
  /// The first row shown, within `0...limit`.
  package let offset: Int

  /// The window from `offset`, clamped so it neither starts before the list nor runs past its end.
  package init(total: Int, visible: Int, offset: Int) {
    self.total = max(0, total)
    self.visible = max(0, visible)
    self.offset = min(max(0, offset), max(0, self.total - self.visible))
  }

  /// The window nearest to `offset` that shows row `index`: it moves only as far as it must, so
  /// a selection walking down a list scrolls it a row at a time, and one inside it moves nothing.
  package init(total: Int, visible: Int, offset: Int, showing index: Int) {
    let index = min(max(0, index), max(0, total - 1))
    self.init(total: total, visible: visible, offset: min(max(offset, index - max(1, visible) + 1), index))
  }

  /// The largest offset: 0 when everything fits.
  package var limit: Int { max(0, total - visible) }
  /// Rows hidden above.
  package var above: Int { offset }
  /// Rows hidden below.
  package var below: Int { max(0, total - offset - visible) }
  /// The rows shown.
  package var rows: Range<Int> { offset..<min(total, offset + visible) }

  package var aboveMark: String? { Self.mark(above: above) }
  package var belowMark: String? { Self.mark(below: below) }
  /// Both marks on one line ("↑ 3 more · ↓ 12 more"), as a header row shows them; "" when all shows.
  package var marks: String { [aboveMark, belowMark].compactMap { $0 }.joined(separator: " · ") }

  /// "↑ 3 more", or nil when nothing is hidden above.
  package static func mark(above count: Int) -> String? { count > 0 ? "↑ \(count) more" : nil }
  /// "↓ 12 more", or nil when nothing is hidden below.
  package static func mark(below count: Int) -> String? { count > 0 ? "↓ \(count) more" : nil }
}
