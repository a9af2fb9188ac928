import Foundation

/// What the tests ask the system about other processes: /proc on Linux, `ps` where there is none
/// (macOS), so the process tests run on both.
package enum ProcessTable {
  /// The one-letter state (`R`, `S`, `Z` for a zombie nobody reaped…); nil once the process is gone.
  package static func state(of pid: Int32) -> String? {
    #if os(Linux)
    let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
    return stat.split(separator: ")").last?.split(separator: " ").first.map(String.init)
    #else
    return ps(["-o", "stat=", "-p", "\(pid)"]).first.map { String($0.prefix(1)) }
    #endif
  }

  /// The children of `pid`, oldest first.
  package static func children(of pid: Int32) -> [Int32] {
    #if os(Linux)
    let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
    return text.split(separator: " ").compactMap { Int32($0) }
    #else
    return ps(["-ax", "-o", "pid=,ppid="]).compactMap { line -> Int32? in
      let fields = line.split(separator: " ")
      return fields.count == 2 && Int32(fields[1]) == pid ? Int32(fields[0]) : nil
    }.sorted()
    #endif
  }

  /// Resident memory in KiB.
  package static func residentKilobytes(of pid: Int32) -> Int? {
    #if os(Linux)
    let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
    return status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") }
      .flatMap { Int($0.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") }
    #else
    return ps(["-o", "rss=", "-p", "\(pid)"]).first.flatMap { Int($0) }
    #endif
  }

  /// Every process with its command line (arguments joined by NUL on Linux, spaces elsewhere).
  package static func all() -> [(pid: Int32, commandLine: String)] {
    #if os(Linux)
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap(Int32.init).compactMap { pid in
      FileManager.default.contents(atPath: "/proc/\(pid)/cmdline").map { (pid, String(decoding: $0, as: UTF8.self)) }
    }
    #else
    return ps(["-ax", "-o", "pid=,command="]).compactMap { line in
      let parts = line.split(separator: " ", maxSplits: 1)
      return parts.count == 2 ? Int32(parts[0]).map { ($0, String(parts[1])) } : nil
    }
    #endif
  }

  #if !os(Linux)
  private static func ps(_ arguments: [String]) -> [String] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/ps")
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return [] }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self).split(separator: "\n")
      .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
  }
  #endif
}
