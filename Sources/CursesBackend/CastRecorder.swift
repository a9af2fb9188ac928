import CNCurses
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
import Synchronization
import TerminalCore

/// Why a recording could not be made: no UTF-8 character type, no terminfo entry, a temporary
/// file that could not be made, bytes that are not UTF-8.
package struct CastFailure: Error, CustomStringConvertible {
  /// One line, saying what to do.
  package var description: String
}

/// The screens a run showed, each at the time a viewer sees it: the first at 0, then one `pace`
/// later for each step that changed the screen (a step that changes nothing adds no time), so
/// the same script always gives the same timeline. Each new screen goes at once to a
/// `CursesRecording`, which turns it into bytes on its own thread while the run goes on: only the
/// last frame and the bytes are kept, however long the run.
package final class CastTimeline: Sendable {
  /// Milliseconds between two screens.
  package let pace: Int
  private let recording: CursesRecording
  private let kept = Mutex<(last: Frame?, times: [Int])>((nil, []))

  package init(pace: Int, size: Size) throws(CastFailure) {
    self.pace = pace
    recording = try CursesRecording(size: size)
  }

  /// Notes the screen after a step; recorded (one pace after the last) only when it changed.
  package func note(_ frame: Frame) {
    let changed = kept.withLock { kept -> Bool in
      guard kept.last != frame else { return false }
      kept.times.append(kept.times.last.map { $0 + pace } ?? 0)
      kept.last = frame
      return true
    }
    if changed { recording.draw(frame) }
  }

  /// When each recorded screen appears, in milliseconds from the start.
  package var times: [Int] { kept.withLock { $0.times } }

  /// Ends the recording: the bytes of every screen noted, and the ending.
  package func finish() throws(CastFailure) -> CursesRecording.Output {
    try recording.finish()
  }
}

/// The bytes ncurses sends a terminal for a sequence of frames: an off-screen ncurses screen of
/// the recording's size (`newterm` on a temporary file, never the real terminal) is set up and
/// drawn exactly as `CursesTerminal` does (`CursesPainter`), and what each `doupdate` writes is
/// read back. Each frame after the first is therefore only the difference from the one before,
/// as `run` sends it. One thread of its own makes every ncurses call of the screen; frames reach
/// it through a queue.
package final class CursesRecording: @unchecked Sendable {
  /// The terminal type a recording is made for (asciinema's players are xterm-like).
  package static let terminalType = "xterm-256color"

  /// What to send for each frame, and what gives the terminal back after the last one.
  package struct Output: Sendable {
    /// One string per frame; the first starts with the setup (clear, hide the cursor…).
    package var frames: [String]
    /// What ncurses' `endwin` sends, without leaving the alternate screen (see `drawAll`).
    package var ending: String
  }

  /// ncurses keeps one current screen per process: recordings (tests make several at once) take
  /// turns, each for its whole life.
  private static let turn = Mutex(())

  private struct Queue {
    package var frames: [Frame] = []
    package var finished = false
    package var output = Output(frames: [], ending: "")
    package var failure: CastFailure?
  }

  private let size: Size
  private let queue = Mutex(Queue())
  /// Signalled for each frame queued and for `finish`.
  private let work = Semaphore()
  /// Signalled once the thread has given its screen back.
  private let done = Semaphore()
  /// Signalled once the thread is past `newterm` (or failed before it): see `init`.
  private let ready = Semaphore()
  /// Whether `ready` was signalled (read and written on the recording's thread only).
  private var isReady = false
  private var finishedOutput: Result<Output, CastFailure>?

  /// Starts the recording's thread and waits until it has made its screen: `newterm` reads its
  /// size from the environment, set for it then, while the caller's threads wait here.
  package init(size: Size) throws(CastFailure) {
    self.size = size
    guard DetachedThread.start("pwt-recording", { [self] in
      Self.turn.withLock { _ in self.drawAll() }
      done.signal()
    }) else {
      throw CastFailure(description: "error: --record cannot start its thread: \(String(cString: strerror(errno)))")
    }
    ready.wait()
  }

  private func signalReady() {
    if !isReady { ready.signal() }
    isReady = true
  }

  /// Queues `frame`, to be drawn after those queued before it.
  package func draw(_ frame: Frame) {
    queue.withLock { $0.frames.append(frame) }
    work.signal()
  }

  /// Waits for every queued frame to be drawn and the screen given back (once; later calls
  /// return the same). The thread only draws what it was given, so the wait is that long.
  package func finish() throws(CastFailure) -> Output {
    if finishedOutput == nil {
      queue.withLock { $0.finished = true }
      work.signal()
      done.wait()
      finishedOutput = queue.withLock { queue in queue.failure.map { .failure($0) } ?? .success(queue.output) }
    }
    return try finishedOutput!.get()
  }

  /// The thread's body: set the screen up, draw each queued frame, give it back at `finish`.
  ///
  /// The alternate screen (`smcup`/`rmcup`) is left out: `asciinema play` in a terminal then
  /// draws in the viewer's normal screen and leaves the last frame there when it ends, where
  /// `rmcup` would wipe it and a missing `rmcup` would leave the viewer in the alternate screen;
  /// web players show the last frame either way. What is drawn is byte for byte what `run` sends.
  private func drawAll() {
    do {
      try withScreen { window, colors, output, alternate throws(CastFailure) in
        while true {
          work.wait()
          let (frames, finished) = queue.withLock { queue -> ([Frame], Bool) in
            defer { queue.frames = [] }
            return (queue.frames, queue.finished)
          }
          for frame in frames {
            CursesPainter.paint(frame, on: window, colors: colors)
            doupdate()
            let text = try Self.take(output, removing: alternate)
            queue.withLock { $0.output.frames.append(text) }
          }
          if finished { break }
        }
        endwin()
        let ending = try Self.take(output, removing: alternate)
        queue.withLock { $0.output.ending = ending }
      }
    } catch {
      signalReady()
      queue.withLock { $0.failure = error }
      // Frames may still be queued; nothing more is drawn, and `finish` reports the failure.
      while !queue.withLock({ $0.finished }) { work.wait() }
    }
  }

  /// Makes the off-screen screen, runs `body` with it (its window, colours, output file and the
  /// sequences to leave out) and deletes it.
  private func withScreen(_ body: (UnsafeMutablePointer<WINDOW>?, ColorScheme, UnsafeMutablePointer<FILE>, [[UInt8]]) throws(CastFailure) -> Void) throws(CastFailure) {
    // ncurses encodes wide characters with the C library's character type: UTF-8 whatever the
    // user's locale, so the file is valid JSON text and the same everywhere. This thread's own
    // (uselocale): the process's locale is left alone while play goes on beside it.
    let utf8Locales: [String] = ["C.UTF-8", "C.utf8", "en_US.UTF-8"]
    guard let utf8 = utf8Locales.lazy.compactMap({ newlocale(LC_CTYPE_MASK, $0, nil) }).first else {
      throw CastFailure(description: "error: --record needs a UTF-8 locale (C.UTF-8) and none is installed")
    }
    let previous = uselocale(utf8)
    defer {
      uselocale(previous)
      freelocale(utf8)
    }
    guard String(cString: nl_langinfo(nl_item(CODESET))) == "UTF-8" else {
      throw CastFailure(description: "error: --record needs a UTF-8 locale (C.UTF-8) and none is installed")
    }
    guard let output = tmpfile() else {
      throw CastFailure(description: "error: --record cannot make a temporary file: \(String(cString: strerror(errno)))")
    }
    defer { fclose(output) }
    guard let input = fopen("/dev/null", "r") else {
      throw CastFailure(description: "error: --record cannot open /dev/null: \(String(cString: strerror(errno)))")
    }
    defer { fclose(input) }
    // ncurses sizes a screen that is no terminal from LINES and COLUMNS, else terminfo's 80x24,
    // and sends that size's scrolling region first: set them for newterm, so the setup is the
    // one a terminal of the recording's size gets (resizeterm after would be too late for it).
    let names: [String] = ["LINES", "COLUMNS"]
    let saved = names.map(ProcessEnvironment.value)
    setenv("LINES", String(size.height), 1)
    setenv("COLUMNS", String(size.width), 1)
    let made = Self.terminalType.withCString { newterm(UnsafeMutablePointer(mutating: $0), output, input) }
    for (name, value) in zip(names, saved) {
      if let value { setenv(name, value, 1) } else { unsetenv(name) }
    }
    signalReady()
    guard let screen = made else {
      throw CastFailure(description: "error: --record needs the terminfo entry \(Self.terminalType) (Debian: ncurses-base); ncurses could not load it")
    }
    let before = set_term(screen)
    defer {
      delscreen(screen)
      if let before { _ = set_term(before) }
    }
    resizeterm(Int32(size.height), Int32(size.width))
    let window = pw_stdscr()
    cbreak()
    noecho()
    nonl()
    // Always in colour: NO_COLOR is the recorder's own terminal's setting, not the viewers'.
    let colors = CursesPainter.configure(window, noColor: false)
    let alternate = [Self.capability("smcup"), Self.capability("rmcup")].compactMap { $0 }
    try body(window, colors, output, alternate)
  }

  /// A terminfo string of the current terminal, nil when it has none.
  private static func capability(_ name: String) -> [UInt8]? {
    guard let value = tigetstr(name), value != UnsafeMutablePointer<CChar>(bitPattern: -1) else { return nil }
    let bytes = Array(String(cString: value).utf8)
    return bytes.isEmpty ? nil : bytes
  }

  /// Everything written to `file` since the last call, as text; the file is emptied.
  private static func take(_ file: UnsafeMutablePointer<FILE>, removing sequences: [[UInt8]]) throws(CastFailure) -> String {
    fflush(file)
    let fd = fileno(file)
    let end = lseek(fd, 0, SEEK_END)
    var bytes = [UInt8](repeating: 0, count: max(0, Int(end)))
    var offset = 0
    while offset < bytes.count {
      let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + offset, $0.count - offset, off_t(offset)) }
      if n < 0 && errno == EINTR { continue }
      guard n > 0 else { throw CastFailure(description: "error: --record cannot read its temporary file: \(String(cString: strerror(errno)))") }
      offset += n
    }
    _ = ftruncate(fd, 0)
    _ = fseek(file, 0, SEEK_SET)
    for sequence in sequences { bytes = removing(sequence, from: bytes) }
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw CastFailure(description: "error: --record: ncurses wrote bytes that are not UTF-8 (the character type is \(String(cString: nl_langinfo(nl_item(CODESET)))))")
    }
    return text
  }

  /// `bytes` without any occurrence of `sequence`.
  package static func removing(_ sequence: [UInt8], from bytes: [UInt8]) -> [UInt8] {
    guard !sequence.isEmpty, bytes.count >= sequence.count else { return bytes }
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var i = 0
    while i < bytes.count {
      if i + sequence.count <= bytes.count, bytes[i..<i + sequence.count].elementsEqual(sequence) {
        i += sequence.count
      } else {
        out.append(bytes[i])
        i += 1
      }
    }
    return out
  }
}

/// An asciicast v2 file (https://docs.asciinema.org/manual/asciicast/v2/): a header line, then one
/// `[seconds, "o", text]` line per frame, written with `CursesRecording`'s bytes.
package struct Asciicast: Sendable {
  package var size: Size
  /// Seconds since 1970 in the header: the store's clock when the run began, so the file holds
  /// no wall-clock time and the same script gives the same bytes.
  package var timestamp: Int
  package var title: String
  /// The viewer's shell, as asciinema records it (`$SHELL`); none when unset.
  package var shell: String?

  package init(size: Size, timestamp: Int, title: String, shell: String?) {
    self.size = size
    self.timestamp = timestamp
    self.title = title
    self.shell = shell
  }

  /// The whole file (ending the timeline's recording): each screen at its time, then what gives
  /// the terminal back, one pace after the last screen (which a player shows for a pace).
  package func text(_ timeline: CastTimeline) throws(CastFailure) -> String {
    let output = try timeline.finish()
    let times = timeline.times
    var env: [(String, JSONOutput)] = [("TERM", .string(CursesRecording.terminalType))]
    if let shell { env.append(("SHELL", .string(shell))) }
    let header = JSONOutput.object([
      ("version", 2), ("width", .number(String(size.width))), ("height", .number(String(size.height))),
      ("timestamp", .number(String(timestamp))), ("env", .object(env)), ("title", .string(title)),
    ])
    var lines = [header.text]
    for (time, text) in zip(times, output.frames) {
      lines.append(Self.event(time, text))
    }
    let end = (times.last ?? 0) + timeline.pace
    lines.append(Self.event(end, output.ending))
    return lines.joined(separator: "\n") + "\n"
  }

  /// `[1.200, "o", "…"]`: the time in seconds with milliseconds, exact (no floating point).
  package static func event(_ milliseconds: Int, _ text: String) -> String {
    let fraction = String(milliseconds % 1000)
    let seconds = "\(milliseconds / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    return "[\(seconds), \"o\", \(JSONText.quote(text))]"
  }
}
