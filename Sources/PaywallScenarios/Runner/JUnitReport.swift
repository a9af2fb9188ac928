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
import PaywallModel
import TerminalCore

/// `--junit FILE`: the results as the JUnit XML that GitHub Actions reporters, GitLab and Jenkins
/// read: `<testsuites>`, one `<testsuite>` per PATH given, one `<testcase>` per scenario
/// (`classname` the PATH, `name` the path below it, `file` the scenario, `time` in seconds) and a
/// `<failure message="first line" type="failed|usage|timeout|crashed|notRun">` holding what
/// `play` said.
package enum JUnitReport {
  package static func xml(_ results: [ScenarioResult], seconds: Double, timestamp: Date = Date()) -> String {
    let failures = results.count(where: { !$0.passed })
    var lines = [
      #"<?xml version="1.0" encoding="UTF-8"?>"#,
      #"<testsuites name="paywall-tui test" tests="\#(results.count)" failures="\#(failures)" errors="0" skipped="0" time="\#(format(seconds))">"#,
    ]
    var roots: [String] = []
    for result in results where !roots.contains(result.scenario.root) { roots.append(result.scenario.root) }
    // The Ant JUnit schema's form, no zone (as Maven Surefire writes it), in UTC.
    let stamp = StoreDates.format(Date(timeIntervalSince1970: timestamp.timeIntervalSince1970.rounded(.down)))
      .replacingOccurrences(of: " ", with: "T")
    let host = escape(ProcessInfo.processInfo.hostName)
    for root in roots {
      let suite = results.filter { $0.scenario.root == root }
      let time = suite.reduce(0) { $0 + $1.seconds }
      lines.append(#"  <testsuite name="\#(escape(root))" tests="\#(suite.count)" failures="\#(suite.count(where: { !$0.passed }))" errors="0" skipped="0" time="\#(format(time))" timestamp="\#(stamp)" hostname="\#(host)">"#)
      for result in suite {
        var attributes = #"name="\#(escape(result.scenario.relativePath))" classname="\#(escape(root))" file="\#(escape(result.scenario.path))""#
        // The failing step's line, where a CI annotates it (only for a step of the scenario's own file).
        if let step = result.step, let line = step.line, step.file == result.scenario.path { attributes += #" line="\#(line)""# }
        attributes += #" time="\#(format(result.seconds))""#
        switch result.outcome {
        case .passed:
          lines.append("    <testcase \(attributes)/>")
        case .failed(let kind, let message):
          let first = message.split(separator: "\n", omittingEmptySubsequences: true).first.map(String.init) ?? kind.rawValue
          var text = message
          if !result.arguments.isEmpty { text += "\n\nTo run it alone: " + ScenarioResult.rerunCommand(result.arguments) }
          lines.append("    <testcase \(attributes)>")
          lines.append(#"      <failure message="\#(escape(first))" type="\#(kind.rawValue)">\#(escape(text, attribute: false))</failure>"#)
          lines.append("    </testcase>")
        }
      }
      lines.append("  </testsuite>")
    }
    lines.append("</testsuites>")
    return lines.joined(separator: "\n") + "\n"
  }

  package static func format(_ seconds: Double) -> String { fixedPoint(seconds, places: 3) }

  /// XML text or attribute value (`XMLText.escape`).
  package static func escape(_ text: String, attribute: Bool = true) -> String { XMLText.escape(text, attribute: attribute) }

  /// Refuses, before any scenario runs, a path the report could not be written to: a directory,
  /// or a place where no file can be created (its folders are made, as `mkdir -p` would).
  package static func checkWritable(_ path: String) throws(PlayFailure) {
    if path.isEmpty { throw .usage("--junit needs a file path, e.g. --junit build/junit.xml") }
    if FileSystem.isDirectory(path) {
      throw .usage("--junit \(quoting: path) is a directory; give a file path, e.g. --junit \((path).appendingPathComponent("junit.xml"))")
    }
    let directory = (path).deletingLastPathComponent
    if let why = FileSystem.makeDirectories(directory) {
      throw .usage("--junit \(quoting: path): cannot create \(directory.isEmpty ? "." : directory) (\(why))")
    }
    let probe = (directory.isEmpty ? "." : directory) + "/" + AtomicFile.temporaryPrefix + "probe-\(getpid())-\(UUID().uuidString.prefix(8))"
    let fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
    guard fd >= 0 else {
      throw .usage("--junit \(quoting: path): cannot write in \(directory.isEmpty ? "." : directory) (\(String(cString: strerror(errno))))")
    }
    close(fd)
    unlink(probe)
  }

  /// Writes the report atomically (a temporary file beside it, then rename): a reader never
  /// sees half of it, and a run that dies leaves the last report whole.
  package static func write(_ xml: String, to path: String) throws(PlayFailure) {
    do {
      try AtomicFile.write(xml, to: path)
    } catch {
      throw PlayFailure(message: "error: --junit: \(error.description)", status: .usage)
    }
  }
}
