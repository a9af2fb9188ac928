extension UInt8 {
  /// A to Z or a to z: what the byte-level readers (tag names, filter names) take for a letter.
  package var isASCIILetter: Bool {
    let lower = self | 0x20
    return lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z")
  }

  /// 0 to 9.
  package var isASCIIDigit: Bool { self >= 0x30 && self <= 0x39 }
}
