#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A large document parsed on every core: the elements of each array that is a member of the
/// root object (a Superwall config's `paywall_responses` and `trigger_options`, a `.storekit`
/// file's products) are parsed in groups beside one another, and the rest of the document around
/// them as before. The tree, every place in it and every error are what `parse(bytes:)` gives:
/// a first pass over the bytes finds where each element starts (`memchr` to each string's end,
/// counting lines), each group checks that its elements end exactly where the next one
/// starts, and anything that does not hold (a syntax error, a document of another shape) is
/// parsed again the ordinary way, so its error is the one a one-core parse reports.
extension JSONParser {
  /// Below this, a document is parsed on one core: starting threads costs more than it saves.
  package static let splittingThreshold = 1 << 20

  /// An array of the root object, parsed ahead: its elements, and where the parser goes on after
  /// its `]` (the offset past it, and that point's line and the offset its line starts at).
  struct ParsedArray {
    var elements: [JSONNode]
    var end: Int
    var endLine: Int
    var endLineStart: Int
  }

  /// Where an element of such an array starts: its offset, line, and the offset its line starts at.
  private struct Start {
    var offset: Int
    var line: Int
    var lineStart: Int
  }

  /// An array of the root object as the first pass found it: its `[`, each element's start, and its end.
  private struct Span {
    var open: Int
    var starts: [Start] = []
    var end = 0
    var endLine = 0
    var endLineStart = 0
  }

  /// `parse(bytes:)`, on `cores` cores when `bytes` is at least `threshold` long.
  package static func parseSplitting(bytes: [UInt8], threshold: Int = splittingThreshold,
                                     cores: Int = onlineCores) throws(JSONSyntaxError) -> JSONNode {
    try parseSplittingReporting(bytes: bytes, threshold: threshold, cores: cores).root
  }

  /// `parseSplitting`, and whether the arrays' elements were parsed apart (false: one core did all).
  package static func parseSplittingReporting(bytes: [UInt8], threshold: Int = splittingThreshold,
                                              cores: Int = onlineCores) throws(JSONSyntaxError) -> (root: JSONNode, split: Bool) {
    guard cores > 1, bytes.count >= threshold else { return (try parse(bytes: bytes), false) }
    let split = try reading(bytes) { (parser) throws(JSONSyntaxError) -> JSONNode? in
      guard let spans = arraySpans(parser.bytes), !spans.isEmpty,
            let parsed = parseElements(of: spans, in: parser.bytes, cores: cores) else { return nil }
      parser.parsedArrays = parsed
      return try? parser.parseDocument()
    }
    if let split { return (split, true) }
    return (try parse(bytes: bytes), false)
  }

  /// Each array of the root object with two elements or more, as the first pass finds it; nil
  /// when the bytes are not an object whose strings all end (the one-core parse says why).
  private static func arraySpans(_ buffer: UnsafeBufferPointer<UInt8>) -> [Span]? {
    var i = buffer.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
    var (line, lineStart) = (1, i)
    var depth = 0
    var spans: [Span] = []
    var current: Span?
    var expectingElement = false
    while i < buffer.count {
      let b = buffer[i]
      let space = b == 0x20 || b == 0x09 || b == 0x0D || b == 0x0A
      if depth == 0 && !space && b != UInt8(ascii: "{") { return nil }
      if expectingElement && !space {
        expectingElement = false
        if b != UInt8(ascii: "]") { current?.starts.append(Start(offset: i, line: line, lineStart: lineStart)) }
      }
      switch b {
      case UInt8(ascii: "\""):
        // To the closing quote: the next quote not escaped (an even run of backslashes before it),
        // found with `memchr` (a config's strings are long base64). A line break or control
        // character in a string is left to the parse, which refuses it.
        guard let end = closingQuote(buffer, after: i) else { return nil }
        i = end
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        depth += 1
        if depth == 2 && b == UInt8(ascii: "[") {
          current = Span(open: i)
          expectingElement = true
        }
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        if depth == 2, b == UInt8(ascii: "]"), var span = current {
          (span.end, span.endLine, span.endLineStart) = (i + 1, line, lineStart)
          if span.starts.count >= 2 { spans.append(span) }
          current = nil
        }
        depth -= 1
        if depth == 0 { return spans }
        if depth < 0 { return nil }
      case UInt8(ascii: ","):
        if depth == 2 && current != nil { expectingElement = true }
      case 0x0A:
        line += 1
        lineStart = i + 1
      default:
        break
      }
      i += 1
    }
    return nil
  }

  /// The offset of the quote that closes the string opened at `open`; nil when none does.
  private static func closingQuote(_ buffer: UnsafeBufferPointer<UInt8>, after open: Int) -> Int? {
    guard let base = buffer.baseAddress else { return nil }
    var from = open + 1
    while from < buffer.count {
      guard let found = memchr(base + from, 0x22, buffer.count - from) else { return nil }
      let quote = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
      var backslashes = 0
      while quote - backslashes - 1 > open && buffer[quote - backslashes - 1] == UInt8(ascii: "\\") { backslashes += 1 }
      if backslashes % 2 == 0 { return quote }
      from = quote + 1
    }
    return nil
  }

  /// The elements of every span, parsed in groups on every core, by the offset of its `[`; nil
  /// when any element does not parse or does not end where the next one starts.
  private static func parseElements(of spans: [Span], in bytes: UnsafeBufferPointer<UInt8>, cores: Int) -> [Int: ParsedArray]? {
    let total = spans.reduce(0) { $0 + $1.starts.count }
    // A few groups per core, so a core that finishes early takes another.
    let size = Swift.max(1, total / (cores * 4))
    var groups: [(span: Int, range: Range<Int>)] = []
    for (s, span) in spans.enumerated() {
      for first in stride(from: 0, to: span.starts.count, by: size) {
        groups.append((s, first..<Swift.min(first + size, span.starts.count)))
      }
    }
    let results = groups.parallelMap { group -> [JSONNode]? in
      let span = spans[group.span]
      var parser = JSONParser(buffer: bytes)
      let start = span.starts[group.range.lowerBound]
      (parser.index, parser.line, parser.lineStart) = (start.offset, start.line, start.lineStart)
      // Inside the root object and this array, as the one-core parse is here.
      parser.depth = 2
      var elements: [JSONNode] = []
      elements.reserveCapacity(group.range.count)
      for k in group.range {
        guard let element = try? parser.parseValue() else { return nil }
        elements.append(element)
        parser.skipWhitespace()
        guard parser.index < bytes.count else { return nil }
        if k + 1 < span.starts.count {
          guard bytes[parser.index] == UInt8(ascii: ",") else { return nil }
          parser.index += 1
          parser.skipWhitespace()
          guard parser.index == span.starts[k + 1].offset, parser.line == span.starts[k + 1].line else { return nil }
        } else {
          guard bytes[parser.index] == UInt8(ascii: "]"), parser.index + 1 == span.end, parser.line == span.endLine else { return nil }
        }
      }
      return elements
    }
    var parsed: [Int: ParsedArray] = [:]
    for (group, elements) in zip(groups, results) {
      guard let elements else { return nil }
      let span = spans[group.span]
      parsed[span.open, default: ParsedArray(elements: [], end: span.end, endLine: span.endLine, endLineStart: span.endLineStart)]
        .elements += elements
    }
    return parsed
  }

  /// `run` over a buffer (`SubstitutionScanner` reads strings by the same rule). Read through the
  /// buffer: indexing the array a byte at a time cost a fifth of a large import.
  static func runEnd(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int, asciiOnly: Bool) -> Int {
    var i = start
    // Eight bytes at a time while none of them ends the run (most of a large config is long
    // base64 strings), then byte by byte.
    if let base = UnsafeRawPointer(buffer.baseAddress) {
      while i + 8 <= buffer.count && !endsRun(ByteSearch.word(base, i), asciiOnly: asciiOnly) {
        i += 8
      }
    }
    while i < buffer.count {
      let b = buffer[i]
      if b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") || b < 0x20 || (asciiOnly && b >= 0x7F) { break }
      i += 1
    }
    return i
  }

  /// Whether any of the eight bytes in `word` ends a run of string bytes (see `run`): a byte under
  /// 0x20 is found as a zero byte is (`ByteSearch.zeroBytes`), subtracting 0x20 from each byte instead of 1.
  private static func endsRun(_ word: UInt64, asciiOnly: Bool) -> Bool {
    let (ones, highs) = (ByteSearch.ones, ByteSearch.highs)
    if asciiOnly && (word & highs != 0 || ByteSearch.marks(word, 0x7F) != 0) { return true }
    let control = (word &- ones &* 0x20) & ~word & highs != 0
    return control || ByteSearch.marks(word, 0x22) != 0 || ByteSearch.marks(word, 0x5C) != 0
  }
}
