/// What a cell means, not how it looks: only a backend maps styles to colours and attributes,
/// so the same frame reads well in 256 colours, 8 colours or monochrome.
public enum CellStyle: UInt8, Sendable, Hashable, CaseIterable {
  case plain
  case title
  case muted
  case accent
  case price
  case badge
  case border
  case selected
  case button
  case focusedButton
  case statusBar
  case statusActive
  case warning
}

/// One terminal cell: a grapheme and the columns it covers. The cell after a 2-column grapheme
/// holds a continuation (width 0) so columns stay where the terminal puts them.
///
/// Cells are plain data so frames copy and compare as flat memory: a grapheme of one scalar (nearly
/// all of them) is stored inline; longer ones (flags, ZWJ sequences, combining marks) live in
/// their frame's cluster table and the cell keeps its index.
public struct Cell: Sendable, Hashable {
  /// The grapheme's first scalar (all of it, nearly always); `Frame.character(x:y:)` gives the
  /// whole grapheme.
  public internal(set) var scalar: Unicode.Scalar
  /// 0 for a single-scalar grapheme, else 1 + its index in the frame's cluster table.
  package var cluster: UInt32
  /// The columns the grapheme covers: 1, 2 for a wide one (CJK, most emoji), 0 for the
  /// continuation after a wide one.
  public internal(set) var width: UInt8
  /// What the cell means (title, price, selected…), for a backend to colour.
  public internal(set) var style: CellStyle

  package init(_ scalar: Unicode.Scalar, width: UInt8 = 1, style: CellStyle = .plain) {
    self.scalar = scalar
    self.cluster = 0
    self.width = width
    self.style = style
  }

  package static let blank = Cell(" ")

  /// True for the second column of a wide grapheme: it draws nothing of its own.
  public var isContinuation: Bool { width == 0 }
}

/// A screen size in terminal cells.
public struct Size: Sendable, Hashable, CustomStringConvertible {
  /// Columns.
  public var width: Int
  /// Rows.
  public var height: Int

  /// A size of `width` columns and `height` rows.
  public init(width: Int, height: Int) {
    self.width = width
    self.height = height
  }

  /// Parses `80x24` (each side 1…1000), as `render --size` takes it; nil for anything else.
  public init?(_ text: String) {
    let parts = text.lowercased().split(separator: Character("x"))
    guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), (1...1000).contains(w), (1...1000).contains(h) else {
      return nil
    }
    self.init(width: w, height: h)
  }

  /// `80x24`.
  public var description: String { "\(width)x\(height)" }
}

/// A rectangle of cells: what `render` produces and a backend presents. Read it as text (`lines`,
/// `text`, or `FrameText` for ANSI colours) or cell by cell (`self[x, y]`, `character(x:y:)`).
public struct Frame: Sendable, Hashable {
  /// Columns.
  public let width: Int
  /// Rows.
  public let height: Int
  /// Row by row; read a cell through `self[x, y]`, which knows the grapheme behind it.
  package private(set) var cells: [Cell]
  /// Graphemes of more than one scalar, referenced by `Cell.cluster`.
  private var clusters: [String] = []

  package init(width: Int, height: Int, fill: Cell = .blank) {
    self.width = max(0, width)
    self.height = max(0, height)
    self.cells = Array(repeating: fill, count: self.width * self.height)
  }

  package init(size: Size) {
    self.init(width: size.width, height: size.height)
  }

  /// `width` by `height`.
  public var size: Size { Size(width: width, height: height) }

  /// The cell at column `x`, row `y` (both from 0, inside the frame).
  public subscript(x: Int, y: Int) -> Cell {
    cells[y * width + x]
  }

  /// The grapheme drawn at (x, y), all of its scalars (a flag, a ZWJ sequence, a combining mark).
  public func character(x: Int, y: Int) -> Character {
    character(of: cells[y * width + x])
  }

  private func character(of cell: Cell) -> Character {
    cell.cluster == 0 ? Character(cell.scalar) : Character(clusters[Int(cell.cluster) - 1])
  }

  private mutating func set(_ character: Character, x: Int, y: Int, width w: Int, style: CellStyle) {
    let scalars = character.unicodeScalars
    var cell = Cell(scalars.first ?? " ", width: UInt8(w), style: style)
    if scalars.count > 1 {
      clusters.append(String(character))
      cell.cluster = UInt32(clusters.count)
    }
    cells[y * width + x] = cell
  }

  /// Writes `text` at (x, y) in `style`, clipped to `limit` columns (default: the frame's right
  /// edge). A wide grapheme that does not fit whole is not drawn. Returns the columns used.
  @discardableResult
  package mutating func put(_ text: String, x: Int, y: Int, style: CellStyle, limit: Int? = nil) -> Int {
    write(text, x: x, y: y, style: style, limit: limit)
  }

  /// `put` for a slice of a string (specialised here, as `DisplayWidth.of` explains).
  @discardableResult
  package mutating func put(_ text: Substring, x: Int, y: Int, style: CellStyle, limit: Int? = nil) -> Int {
    write(text, x: x, y: y, style: style, limit: limit)
  }

  @inline(__always)
  private mutating func write(_ text: some StringProtocol, x: Int, y: Int, style: CellStyle, limit: Int?) -> Int {
    guard y >= 0 && y < height && x < width else { return 0 }
    let end = min(width, x + (limit ?? width))
    var column = x
    // ASCII, most of a paywall: a cell a byte, with no grapheme breaking (controls take none, as
    // `DisplayWidth` says; a "\r\n" cluster's two bytes are both controls).
    if text.utf8.allSatisfy({ $0 < 0x80 }) {
      for byte in text.utf8 where byte >= 0x20 && byte != 0x7F {
        if column + 1 > end { break }
        if column >= 0 {
          detach(x: column, y: y)
          cells[y * width + column] = Cell(Unicode.Scalar(byte), width: 1, style: style)
        }
        column += 1
      }
      return column - x
    }
    // Latin letters, dashes, bullets and box drawing besides ASCII: a cell a scalar, with no
    // grapheme breaking (`DisplayWidth.simpleColumns` says why that holds).
    if DisplayWidth.simpleColumns(text) != nil {
      for scalar in text.unicodeScalars where scalar.value >= 0x20 && scalar.value != 0x7F {
        if column + 1 > end { break }
        if column >= 0 {
          detach(x: column, y: y)
          cells[y * width + column] = Cell(scalar, width: 1, style: style)
        }
        column += 1
      }
      return column - x
    }
    for character in text {
      // An Indic cluster goes to the terminal as the units it counts: each letter or spacing sign
      // a column, with the marks that take none (`DisplayWidth.terminalUnits`).
      if character.unicodeScalars.count > 1, DisplayWidth.isIndic(character) {
        var fits = true
        for unit in DisplayWidth.terminalUnits(character) where fits {
          fits = place(unit, at: &column, end: end, y: y, style: style)
        }
        if !fits { break }
        continue
      }
      if !place(character, at: &column, end: end, y: y, style: style) { break }
    }
    return column - x
  }

  /// Writes one grapheme at `column` and moves past it; false when it does not fit before `end`.
  @inline(__always)
  private mutating func place(_ character: Character, at column: inout Int, end: Int, y: Int, style: CellStyle) -> Bool {
    let w = DisplayWidth.of(character)
    if w == 0 { return true }
    if column + w > end { return false }
    if column >= 0 {
      detach(x: column, y: y)
      if w == 2 { detach(x: column + 1, y: y) }
      if let ascii = character.asciiValue {
        cells[y * width + column] = Cell(Unicode.Scalar(ascii), width: 1, style: style)
      } else {
        set(character, x: column, y: y, width: w, style: style)
        if w == 2 { cells[y * width + column + 1] = Cell(" ", width: 0, style: style) }
      }
    }
    column += w
    return true
  }

  /// Fills a run of cells with one character (borders, status bars).
  package mutating func fill(_ scalar: Unicode.Scalar, x: Int, y: Int, count: Int, style: CellStyle) {
    guard y >= 0 && y < height && x < width else { return }
    let cell = Cell(scalar, width: 1, style: style)
    let columns = max(0, x)..<min(width, x + count)
    guard !columns.isEmpty else { return }
    detach(x: columns.lowerBound, y: y)
    detach(x: columns.upperBound - 1, y: y)
    for column in columns {
      cells[y * width + column] = cell
    }
  }

  /// Before the cell at (x, y) is overwritten: the other half of a wide grapheme it belongs to
  /// becomes a blank, so no row is left with half a character (a terminal would shift the rest).
  private mutating func detach(x: Int, y: Int) {
    let i = y * width + x
    if cells[i].isContinuation, x > 0, cells[i - 1].width == 2 {
      cells[i - 1] = Cell(" ", width: 1, style: cells[i - 1].style)
    } else if cells[i].width == 2, x + 1 < width, cells[i + 1].isContinuation {
      cells[i + 1] = Cell(" ", width: 1, style: cells[i + 1].style)
    }
  }

  /// Changes the style of a run of cells, keeping their characters (focus and selection bars).
  package mutating func restyle(x: Int, y: Int, count: Int, style: CellStyle) {
    guard y >= 0 && y < height else { return }
    for column in max(0, x)..<min(width, x + count) {
      cells[y * width + column].style = style
    }
  }

  /// Copies `other` with its top-left corner at (x, y), clipping at the edges.
  package mutating func draw(_ other: Frame, x: Int, y: Int) {
    let base = UInt32(clusters.count)
    clusters += other.clusters
    let first = max(0, -x)
    let last = min(other.width, width - x)
    guard first < last else { return }
    for row in 0..<other.height where y + row >= 0 && y + row < height {
      let source = row * other.width
      let target = (y + row) * width + x
      detach(x: x + first, y: y + row)
      detach(x: x + last - 1, y: y + row)
      if other.clusters.isEmpty {
        cells.replaceSubrange((target + first)..<(target + last), with: other.cells[(source + first)..<(source + last)])
      } else {
        for column in first..<last {
          var cell = other.cells[source + column]
          if cell.cluster != 0 { cell.cluster += base }
          cells[target + column] = cell
        }
      }
      // A wide grapheme cut in two by the clipping edges is drawn as a blank.
      if cells[target + first].isContinuation {
        cells[target + first] = Cell(" ", width: 1, style: cells[target + first].style)
      }
      if cells[target + last - 1].width == 2 {
        cells[target + last - 1] = Cell(" ", width: 1, style: cells[target + last - 1].style)
      }
    }
  }

  // MARK: - Text

  /// The rows as text, trailing spaces kept, so goldens pin every column.
  public var lines: [String] {
    (0..<height).map { row in
      var line = ""
      line.reserveCapacity(width)
      for column in 0..<width {
        let cell = self[column, row]
        if !cell.isContinuation { line.append(character(of: cell)) }
      }
      return line
    }
  }

  /// The rows joined with newlines, trailing spaces kept.
  public var text: String { lines.joined(separator: "\n") }

  /// Runs of equal style per row: `row: [(start column, length, style)]`, for style goldens.
  public func styleRuns(row: Int) -> [(start: Int, length: Int, style: CellStyle)] {
    var runs: [(Int, Int, CellStyle)] = []
    for column in 0..<width {
      let style = self[column, row].style
      if let last = runs.last, last.2 == style {
        runs[runs.count - 1].1 += 1
      } else {
        runs.append((column, 1, style))
      }
    }
    return runs
  }
}
