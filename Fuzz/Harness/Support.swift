import Foundation
@testable import PaywallModel

/// A failed property: the message goes to stderr and the process traps, which libFuzzer reports
/// as a crash and saves the input for.
func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
  if !condition() {
    FileHandle.standardError.write(Data("PROPERTY FAILED: \(message())\n".utf8))
    fatalError("fuzz property failed")
  }
}

/// The directory `fuzz.sh` runs from (the repository), for the bundled files.
let repositoryRoot = ProcessInfo.processInfo.environment["FUZZ_REPO"] ?? FileManager.default.currentDirectoryPath

/// A scratch directory for targets that read real files (the state files).
let scratchDirectory: String = {
  let base = ProcessInfo.processInfo.environment["FUZZ_SCRATCH"] ?? NSTemporaryDirectory()
  let path = (base as NSString).appendingPathComponent("paywall-fuzz-\(getpid())")
  try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
  return path
}()

/// Scalars that must never reach a terminal: C0 but newline, DEL, C1, bidi overrides and isolates.
func isControl(_ scalar: Unicode.Scalar) -> Bool {
  UntrustedText.isRemoved(scalar)
}

func controlScalars(in text: String, allowNewline: Bool = true) -> [String] {
  text.unicodeScalars.filter { isControl($0) || (!allowNewline && $0 == "\n") }
    .map { "U+" + String($0.value, radix: 16, uppercase: true) }
}

/// Diagnostics must point into the file: a line that exists and a column on it (or just past its
/// end), counted in Unicode scalars as editors do.
struct SourceShape {
  /// Scalars per line.
  let lineLengths: [Int]

  init(_ bytes: [UInt8]) {
    var lengths: [Int] = []
    var current = 0
    for byte in bytes {
      if byte == 0x0A {
        lengths.append(current)
        current = 0
      } else if byte & 0xC0 != 0x80 {
        current += 1
      }
    }
    lengths.append(current)
    lineLengths = lengths
  }

  func check(_ diagnostics: [Diagnostic], file: String) {
    for d in diagnostics where d.file == file {
      require(d.location.line >= 1 && d.location.line <= lineLengths.count,
              "diagnostic line \(d.location.line) outside 1...\(lineLengths.count): \(d)")
      let length = lineLengths[max(0, min(lineLengths.count - 1, d.location.line - 1))]
      require(d.location.column >= 1 && d.location.column <= length + 1,
              "diagnostic column \(d.location.column) outside 1...\(length + 1) on line \(d.location.line): \(d)")
      require(!d.message.isEmpty, "empty diagnostic message at \(d.location)")
    }
  }
}

/// Takes values off the front of a fuzz input; past the end, everything reads as zero or empty.
struct InputReader {
  private let bytes: [UInt8]
  private var index = 0

  init(_ bytes: [UInt8]) {
    self.bytes = bytes
  }

  var isAtEnd: Bool { index >= bytes.count }

  mutating func byte() -> UInt8 {
    guard index < bytes.count else { return 0 }
    defer { index += 1 }
    return bytes[index]
  }

  mutating func bool() -> Bool { byte() & 1 == 1 }

  mutating func int(_ range: ClosedRange<Int>) -> Int {
    let raw = Int(byte()) << 8 | Int(byte())
    return range.lowerBound + raw % (range.count)
  }

  /// Bytes up to the next NUL (or the end), decoded as UTF-8 with invalid bytes replaced.
  mutating func string() -> String {
    guard index < bytes.count else { return "" }
    let start = index
    while index < bytes.count && bytes[index] != 0 { index += 1 }
    let text = String(decoding: bytes[start..<index], as: UTF8.self)
    if index < bytes.count { index += 1 }
    return text
  }

  /// Everything not read yet.
  mutating func rest() -> [UInt8] {
    defer { index = bytes.count }
    return index < bytes.count ? Array(bytes[index...]) : []
  }
}

/// The bundled demo catalog (paywalls/catalog.json), loaded once.
nonisolated(unsafe) var bundledCatalog: Catalog!

func loadBundledCatalog() {
  guard bundledCatalog == nil else { return }
  let path = (repositoryRoot as NSString).appendingPathComponent("paywalls/catalog.json")
  do {
    bundledCatalog = try Catalog.load(path: path)
  } catch {
    FileHandle.standardError.write(Data("cannot load \(path) (run from the repository or set FUZZ_REPO): \(error)\n".utf8))
    exit(2)
  }
}
