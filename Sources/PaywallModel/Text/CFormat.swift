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
