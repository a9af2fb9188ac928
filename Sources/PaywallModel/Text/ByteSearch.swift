/// Searches over UTF-8 bytes a word (eight bytes) at a time, for the readers of large texts: a
/// Superwall config's substitutions, the paywalls built from them, the JSON parser's columns.
/// Words are read little-endian whatever the machine, so the first byte is the lowest.
package enum ByteSearch {
  static let ones: UInt64 = 0x0101_0101_0101_0101
  static let highs: UInt64 = 0x8080_8080_8080_8080

  /// Whether some byte of `v` is zero: the lowest zero byte borrows, and only a byte that was
  /// zero or that a borrow reached can set its high bit in `(v - ones) & ~v`.
  static func zeroBytes(_ v: UInt64) -> UInt64 {
    (v &- ones) & ~v & highs
  }

  /// The bytes of `word` equal to `byte`, each marked by its high bit. The lowest mark is exact
  /// (a borrow can mark a byte above a true one, never one below it).
  static func marks(_ word: UInt64, _ byte: UInt8) -> UInt64 {
    zeroBytes(word ^ (ones &* UInt64(byte)))
  }

  static func word(_ base: UnsafeRawPointer, _ offset: Int) -> UInt64 {
    UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
  }

  /// Where the first `a` or `b` is in `bytes`, from `start`; `bytes.count` when there is none.
  package static func first(_ a: UInt8, or b: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
    var i = start
    if let base = UnsafeRawPointer(bytes.baseAddress) {
      while i + 8 <= bytes.count {
        let w = word(base, i)
        let found = marks(w, a) | marks(w, b)
        if found != 0 { return i + found.trailingZeroBitCount / 8 }
        i += 8
      }
    }
    while i < bytes.count && bytes[i] != a && bytes[i] != b { i += 1 }
    return i
  }

  /// Where the first `byte` is in `bytes`, from `start`; `bytes.count` when there is none.
  package static func first(_ byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
    first(byte, or: byte, in: bytes, from: start)
  }

  /// Where `byte` twice in a row (`{{`, `}}`) first is in `bytes`, from `start`.
  package static func doubled(_ byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
    var i = start
    while true {
      i = first(byte, in: bytes, from: i)
      guard i + 1 < bytes.count else { return nil }
      if bytes[i + 1] == byte { return i }
      i += 1
    }
  }

  /// Whether `a` and `b` hold the same bytes.
  package static func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
    guard a.count == b.count else { return false }
    var i = 0
    if let x = UnsafeRawPointer(a.baseAddress), let y = UnsafeRawPointer(b.baseAddress) {
      while i + 8 <= a.count {
        if x.loadUnaligned(fromByteOffset: i, as: UInt64.self) != y.loadUnaligned(fromByteOffset: i, as: UInt64.self) { return false }
        i += 8
      }
    }
    while i < a.count {
      if a[i] != b[i] { return false }
      i += 1
    }
    return true
  }

  /// How many bytes of `range` do not continue a scalar: for valid UTF-8, how many scalars it holds.
  /// Each byte lane of a word counts its continuations (for up to 255 words), and one multiply
  /// sums the lanes: a popcount per word was a software one (x86-64's baseline has no POPCNT).
  package static func scalarCount(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int {
    var continuations = 0
    var i = range.lowerBound
    if let base = UnsafeRawPointer(bytes.baseAddress) {
      while i + 8 <= range.upperBound {
        var lanes: UInt64 = 0
        let stop = min(range.upperBound, i + 8 * 255)
        while i + 8 <= stop {
          // A continuation byte has its high bit set and the next one clear.
          let w = word(base, i)
          lanes &+= (w & ~(w << 1) & highs) >> 7
          i += 8
        }
        // Pairs of lanes summed into 16 bits, and the multiply gathers the four sums in the top ones.
        let pairs = (lanes & 0x00FF_00FF_00FF_00FF) &+ ((lanes >> 8) & 0x00FF_00FF_00FF_00FF)
        continuations += Int((pairs &* 0x0001_0001_0001_0001) >> 48)
      }
    }
    while i < range.upperBound {
      if bytes[i] & 0xC0 == 0x80 { continuations += 1 }
      i += 1
    }
    return range.count - continuations
  }
}
