/// Base64 as an encoder writes it (RFC 4648's alphabet, a length that is a multiple of four, `=`
/// only as the last one or two characters), decoded in one pass over the bytes into the array the
/// JSON parser takes. Anything else is nil, and the caller hands it to Foundation's decoder with
/// `.ignoreUnknownCharacters`: on text of this shape both decoders give the same bytes, and on
/// any other only Foundation's rules apply, so which configs decode does not change. Foundation's
/// skipping decoder was a fifth of the work of decoding a large config's substitutions.
package enum CanonicalBase64 {
  /// Each byte's value in the alphabet, or 0xFF for a byte outside it (`=` included).
  private static let values: [UInt8] = {
    var table = [UInt8](repeating: 0xFF, count: 256)
    for (value, byte) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8.enumerated() {
      table[Int(byte)] = UInt8(value)
    }
    return table
  }()

  package static func decode(_ text: String) -> [UInt8]? {
    var text = text
    return text.withUTF8 { decode($0) }
  }

  package static func decode(_ input: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
    let count = input.count
    guard count > 0, count % 4 == 0 else { return nil }
    let pad = UInt8(ascii: "=")
    let padding = input[count - 1] != pad ? 0 : input[count - 2] == pad ? 2 : 1
    // Whole groups of four, then the padded last group (its `=` are not looked up).
    let whole = padding == 0 ? count : count - 4
    var valid = true
    let bytes = values.withUnsafeBufferPointer { table in
      [UInt8](unsafeUninitializedCapacity: count / 4 * 3 - padding) { out, initialized in
        var (i, o) = (0, 0)
        while i < whole {
          let (a, b, c, d) = (table[Int(input[i])], table[Int(input[i + 1])], table[Int(input[i + 2])], table[Int(input[i + 3])])
          guard (a | b | c | d) & 0x80 == 0 else { valid = false; break }
          let group = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
          out[o] = UInt8(truncatingIfNeeded: group >> 16)
          out[o + 1] = UInt8(truncatingIfNeeded: group >> 8)
          out[o + 2] = UInt8(truncatingIfNeeded: group)
          (i, o) = (i + 4, o + 3)
        }
        if valid && padding > 0 {
          let (a, b) = (table[Int(input[i])], table[Int(input[i + 1])])
          let c = padding == 1 ? table[Int(input[i + 2])] : 0
          if (a | b | c) & 0x80 != 0 {
            valid = false
          } else {
            let group = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6
            out[o] = UInt8(truncatingIfNeeded: group >> 16)
            if padding == 1 { out[o + 1] = UInt8(truncatingIfNeeded: group >> 8) }
            o += 3 - padding
          }
        }
        initialized = o
      }
    }
    return valid ? bytes : nil
  }
}
