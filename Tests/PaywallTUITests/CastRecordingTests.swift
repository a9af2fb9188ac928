import Foundation
import PaywallModel
@testable import TerminalCore
@testable import CursesBackend
import PaywallTesting
import Testing

/// `play --record`: the asciicast holds the bytes ncurses sends for each frame, so a terminal
/// emulator (python's pyte) fed the file shows every frame, and asciinema reads it. Both are
/// Python modules a machine may lack: those tests say `.requires(.pyte)` / `.requires(.asciinema)`.
@Suite("Recordings (.cast)")
struct CastRecordingTests {
  /// Feeds a .cast to pyte event by event and prints, as one JSON object, the screen after each
  /// event and the last screen's looks cell by cell ([fg, bg, bold, reverse]). The header and
  /// every event line are read with python's own JSON parser.
  static let pyteScript = #"""
  import json, sys, pyte
  lines = open(sys.argv[1], encoding="utf-8").read().split("\n")
  assert lines[-1] == "", "the file ends with a newline"
  header = json.loads(lines[0])
  screen = pyte.Screen(header["width"], header["height"])
  stream = pyte.Stream(screen)
  displays, times = [], []
  for line in lines[1:-1]:
      time, kind, data = json.loads(line)
      assert kind == "o"
      times.append(time)
      stream.feed(data)
      displays.append([row.rstrip() for row in screen.display])
  looks = [[[c.fg, c.bg, c.bold, c.reverse] for c in (screen.buffer[y][x] for x in range(screen.columns))] for y in range(screen.lines)]
  print(json.dumps({"header": header, "times": times, "displays": displays, "looks": looks}))
  """#

  struct Emulated: Decodable {
    struct Header: Decodable {
      var version: Int
      var width: Int
      var height: Int
      var timestamp: Int
      var env: [String: String]
      var title: String
    }
    var header: Header
    var times: [Double]
    var displays: [[String]]
    /// Per row, per cell: fg, bg, bold, reverse.
    var looks: [[[Look]]]

    enum Look: Decodable, Equatable {
      case text(String)
      case flag(Bool)
      init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let flag = try? container.decode(Bool.self) { self = .flag(flag) } else { self = .text(try container.decode(String.self)) }
      }
    }

    func look(x: Int, y: Int) -> (fg: String, bg: String, bold: Bool, reverse: Bool) {
      let cell = looks[y][x]
      guard case .text(let fg) = cell[0], case .text(let bg) = cell[1], case .flag(let bold) = cell[2], case .flag(let reverse) = cell[3] else {
        return ("?", "?", false, false)
      }
      return (fg, bg, bold, reverse)
    }
  }

  static func emulate(_ castPath: String) throws -> Emulated {
    let output = try PaywallBinary.spawn(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", pyteScript, castPath])
    #expect(output.status == 0, "pyte could not play \(castPath): \(output.stderr)")
    return try JSONDecoder().decode(Emulated.self, from: Data(output.stdout.utf8))
  }

  static func temporaryDirectory() throws -> String {
    let path = Scratch.root.appendingPathComponent("paywall-tui-cast-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  /// Frames with what a terminal finds hard: wide characters, box drawing, a badge on a
  /// background colour, reverse video, bold, and a second frame that changes a few cells.
  static func frames() -> [Frame] {
    var first = Frame(width: 40, height: 8)
    first.put("Unlock 漢字 Pro", x: 2, y: 0, style: .title)
    first.fill("─", x: 0, y: 1, count: 40, style: .border)
    first.put("│ Annual  $59.99 │", x: 1, y: 2, style: .selected)
    first.put("BEST VALUE", x: 24, y: 2, style: .badge)
    first.put("│ Monthly  $5.99 │", x: 1, y: 3, style: .border)
    first.put("[ Continue ]", x: 4, y: 5, style: .focusedButton)
    first.put(" status: inactive", x: 0, y: 7, style: .statusBar)
    var second = first
    second.put("│ Annual  $59.99 │", x: 1, y: 2, style: .border)
    second.put("│ Monthly  $5.99 │", x: 1, y: 3, style: .selected)
    var third = second
    third.put(" status: active:pro", x: 0, y: 7, style: .statusActive)
    third.put("✓ 日本", x: 30, y: 5, style: .accent)
    return [first, second, third]
  }

  @Test(.requires(.pyte)) func everyFrameIsWhatATerminalEmulatorShowsFromTheBytes() throws {
    let frames = Self.frames()
    let size = Size(width: 40, height: 8)
    let timeline = try CastTimeline(pace: 600, size: size)
    for frame in frames + [frames[2]] { timeline.note(frame) }  // an unchanged screen adds no time
    let cast = Asciicast(size: size, timestamp: 1_767_225_600, title: "frames", shell: "/bin/sh")
    let text = try cast.text(timeline)
    let directory = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/frames.cast"
    try text.write(toFile: path, atomically: true, encoding: .utf8)

    let emulated = try Self.emulate(path)
    #expect(emulated.header.version == 2 && emulated.header.width == 40 && emulated.header.height == 8)
    #expect(emulated.header.env == ["TERM": "xterm-256color", "SHELL": "/bin/sh"])
    #expect(emulated.times == [0, 0.6, 1.2, 1.8])
    // After each frame's event (and after the ending), the emulator shows that frame, wide
    // characters included.
    let expected = frames.map { $0.lines.map(FrameText.trimTrailingSpaces) }
    #expect(Array(emulated.displays.prefix(3)) == expected)
    #expect(emulated.displays.last == expected.last)
    // The styles are in the bytes: bold title, the badge on yellow ("brown" to pyte), the
    // selected card green and bold, the button reversed, the active status bar on green.
    #expect(emulated.look(x: 2, y: 0).bold)
    #expect(emulated.look(x: 24, y: 2).bg == "brown" && emulated.look(x: 24, y: 2).fg == "black")
    #expect(emulated.look(x: 3, y: 3).fg == "green" && emulated.look(x: 3, y: 3).bold)
    #expect(emulated.look(x: 3, y: 2).fg == "default" && !emulated.look(x: 3, y: 2).bold)
    #expect(emulated.look(x: 5, y: 5).reverse)
    #expect(emulated.look(x: 2, y: 7).bg == "green")

    // ncurses diffed: the second frame sends what changed, a fraction of the first paint.
    let events = text.split(separator: "\n").dropFirst().map(String.init)
    #expect(events[1].utf8.count * 3 < events[0].utf8.count, "\(events[1])")
    // Never the alternate screen: `asciinema play` leaves the last frame in the viewer's terminal.
    #expect(!text.contains("\\u001b[?1049"))
    // Set up for the recording's size (a scrolling region of its 8 rows), not terminfo's 24.
    #expect(events[0].hasPrefix(#"[0.000, "o", "\u001b[1;8r"#), "\(events[0])")
    // The ending gives the cursor back and draws nothing over the last frame.
    #expect(events.last!.contains("\\u001b[?25h"))
  }

  @Test func bytesThatAreNotInTheSequenceAreKept() {
    let bytes = Array("a\u{1B}[?1049hb\u{1B}[?1049h".utf8)
    #expect(CursesRecording.removing(Array("\u{1B}[?1049h".utf8), from: bytes) == Array("ab".utf8))
    #expect(CursesRecording.removing([], from: bytes) == bytes)
    #expect(Asciicast.event(65_007, "\u{1B}\"") == #"[65.007, "o", "\u001b\""]"#)
  }

  static let keys = "down down"
  static let recordArguments = ["play", "paywalls", "--controller", "scripted", "--status", "inactive", "--keys", keys]

  /// The real binary records a run; pyte's last screen is `--screen`'s, with the paywall's
  /// title and the status bar; a second recording is byte for byte the same.
  @Test(.requires(.pyte)) func playRecordsWhatATerminalEmulatorShows() throws {
    let directory = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let first = directory + "/one/demo.cast", second = directory + "/two.cast"
    let run = try PaywallBinary.run(Self.recordArguments + ["--record", first, "--screen"])
    #expect(run.status == 0, "\(run.stderr)")
    // stdout stays JSON lines: the recording goes only to the file.
    let lines = run.stdout.split(separator: "\n")
    #expect(lines.allSatisfy { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) != nil })
    let screenLine = try #require(lines.last)
    let screen = try #require(try JSONSerialization.jsonObject(with: Data(screenLine.utf8)) as? [String: [String]])["screen"]

    let emulated = try Self.emulate(first)
    #expect(emulated.displays.last == screen)
    let last = try #require(emulated.displays.last).joined(separator: "\n")
    #expect(last.contains("Unlock Acme Pro"))
    #expect(try #require(emulated.displays.last?.last).contains("status: inactive"))
    let titleRow = try #require(emulated.displays.last?.firstIndex { $0.contains("Unlock Acme Pro") })
    let titleColumn = try #require(emulated.displays.last?[titleRow].firstIndex(of: "U")).utf16Offset(in: emulated.displays.last![titleRow])
    #expect(emulated.look(x: titleColumn, y: titleRow).bold)
    #expect(emulated.look(x: 2, y: 23).bg == "white")  // the status bar, black on white
    // The first screen, then one pace for each key that moved the selection, then the ending.
    #expect(emulated.times == [0, 0.6, 1.2, 1.8])
    #expect(emulated.header.timestamp == 1_767_225_600)  // the store's clock, not the wall's
    #expect(emulated.header.title == "paywall-tui play paywalls --keys \(Self.keys)")

    // NO_COLOR is the recorder's terminal's setting: the file is the same with it.
    let again = try PaywallBinary.run(Self.recordArguments + ["--record", second], environment: ["NO_COLOR": "1"])
    #expect(again.status == 0, "\(again.stderr)")
    #expect(try Data(contentsOf: URL(fileURLWithPath: first)) == Data(contentsOf: URL(fileURLWithPath: second)))
    // No temporary file is left beside the recording.
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory + "/one") == ["demo.cast"])
  }

  /// asciinema itself reads what `play --record` writes.
  @Test(.requires(.asciinema)) func asciinemaReadsARecording() throws {
    let directory = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let run = try PaywallBinary.run(Self.recordArguments + ["--record", directory + "/demo.cast"])
    #expect(run.status == 0, "\(run.stderr)")
    let cat = try PaywallBinary.spawn(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-m", "asciinema", "cat", directory + "/demo.cast"])
    #expect(cat.status == 0, "asciinema cat: \(cat.stderr)")
    #expect(cat.stdout.contains("Unlock Acme Pro"))
  }

  @Test(.requires(.pyte)) func aPaceChangesTheTimesOnly() throws {
    let directory = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let run = try PaywallBinary.run(Self.recordArguments + ["--record", directory + "/slow.cast", "--pace", "1.5s"])
    #expect(run.status == 0, "\(run.stderr)")
    #expect(try Self.emulate(directory + "/slow.cast").times == [0, 1.5, 3, 4.5])
  }

  /// A run that fails still leaves its recording, ending on the screen the failure left.
  @Test(.requires(.pyte)) func aFailedExpectStillWritesWhatWasShown() throws {
    let directory = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    try "press down\nexpect screen Nothing like this\n".write(toFile: directory + "/fails.play", atomically: true, encoding: .utf8)
    let failed = try PaywallBinary.run(["play", "paywalls", "--controller", "scripted", "--status", "inactive",
                                           "--script", directory + "/fails.play", "--record", directory + "/fails.cast"])
    #expect(failed.status == 1)
    #expect(failed.stderr.contains("fails.play:2: expected the screen to show"), "\(failed.stderr)")
    let shown = try PaywallBinary.run(["play", "paywalls", "--controller", "scripted", "--status", "inactive", "--keys", "down", "--screen"])
    let screenLine = try #require(shown.stdout.split(separator: "\n").last)
    let screen = try #require(try JSONSerialization.jsonObject(with: Data(screenLine.utf8)) as? [String: [String]])["screen"]
    let emulated = try Self.emulate(directory + "/fails.cast")
    #expect(emulated.displays.last == screen)
    #expect(emulated.times == [0, 0.6, 1.2])
  }

  @Test(arguments: [
    (["--pace", "1s"], "--pace sets the time between screens of a recording; give --record FILE.cast too"),
    (["--record", "demo.cast", "--pace", "fast"], "--pace 'fast' must be a duration from 1ms to 1h, e.g. 600ms or 1.5s"),
    (["--record", "demo.cast", "--pace", "0ms"], "--pace '0ms' must be a duration"),
    (["--record", ""], "--record needs a file path, e.g. --record demo.cast"),
    (["--record", "Sources"], "--record 'Sources' is a directory; give a file path, e.g. --record Sources/demo.cast"),
  ])
  func badRecordOptionsAreUsageErrorsBeforeAnythingRuns(extra: [String], message: String) throws {
    let run = try PaywallBinary.run(Self.recordArguments + extra)
    #expect(run.status == 2)
    #expect(run.stderr.contains(message), "\(run.stderr)")
    #expect(run.stdout.isEmpty)
    #expect(!FileManager.default.fileExists(atPath: Fixtures.repositoryRoot.appendingPathComponent("demo.cast").path))
  }
}
