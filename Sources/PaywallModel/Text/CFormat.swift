#if canImport(FoundationEssentials) && !PAYWALL_FULL_FOUNDATION
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `printf`'s formatting of numbers ("%.3f", "%g", "%04X"), what `String(format:)` did before
/// Foundation left the shipped binary. Numeric conversions only: no `%@`, no `%s`.
package func cFormat(_ format: String, _ arguments: CVarArg...) -> String {
  func attempt(_ capacity: Int) -> (String, Int) {
    withVaList(arguments) { list in
      var buffer = [CChar](repeating: 0, count: capacity)
      let needed = Int(vsnprintf(&buffer, capacity, format, list))
      let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
      return (String(decoding: bytes, as: UTF8.self), needed)
    }
  }
  let (text, needed) = attempt(64)
  return needed < 64 ? text : attempt(needed + 1).0
}

/// `value` as `printf("%.Nf")` prints it, N = `places` (0–6), without `printf`: the exact binary
/// value rounded half to even. A state file writes its dates this way; `cFormat` first casts its
/// arguments to `CVarArg`, and that cast's first use searched every conformance of the binary
/// (630,000 instructions at launch). Infinities, NaN and values past 2^107 go to `cFormat`.
package func fixedPoint(_ value: Double, places: Int) -> String {
  precondition((0...6).contains(places), "fixedPoint: places must be 0 to 6")
  let magnitude = value.magnitude
  // magnitude = significand × 2^exponent, the significand an integer of up to 53 bits.
  let biased = Int(magnitude.exponentBitPattern)
  let significand = UInt128(magnitude.significandBitPattern) | (biased == 0 ? 0 : UInt128(1) << 52)
  let exponent = (biased == 0 ? 1 : biased) - 1075
  guard magnitude.isFinite, exponent <= 54 else { return cFormat("%.\(places)f", value) }
  var scale: UInt128 = 1
  for _ in 0..<places { scale *= 10 }
  // value × 10^places, rounded half to even: under 2^73 × 2^54, well within 128 bits.
  var scaled = significand * scale
  if exponent >= 0 {
    scaled <<= exponent
  } else if -exponent >= 128 {
    scaled = 0  // under 2^73 × 2^-128: less than half of one unit of the last place
  } else {
    let shift = -exponent
    let remainder = scaled & ((UInt128(1) << shift) - 1)
    let half = UInt128(1) << (shift - 1)
    scaled >>= shift
    if remainder > half || (remainder == half && scaled & 1 == 1) { scaled += 1 }
  }
  var text = value.sign == .minus ? "-" : ""
  text += String(scaled / scale)
  if places > 0 {
    let fraction = String(scaled % scale)
    text += "."
    text += String(repeating: "0", count: places - fraction.utf8.count)
    text += fraction
  }
  return text
}
