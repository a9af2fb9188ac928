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
import PaywallUI

/// `run --record FILE.play`: the session as a play script that `paywall-tui play FILE.play`
/// replays. Line 1 is `# args: …` (what `play` and `test` read), line 2 says who wrote it (an
/// existing file is replaced only when its line 2 says so). Then each key as `press KEY`, each
/// resize as `resize WxH`, and before them the time that passed as `advance Nms` on the store's
/// clock (its own flow only: a jump the debug panel made is replayed by the key that made it).
/// Each step is appended and fsynced, so a crash or `kill -9` leaves a script that replays up to
/// its last step; a session that ends normally adds `expect status` and `expect screen` lines.
/// Used on the loop's thread only (`AppRuntime.dispatch`).
package final class SessionRecorder: DispatchObserver, @unchecked Sendable {
  /// Line 2 of every recording: what makes an existing file one we may replace.
  package static let marker = "# recorded by paywall-tui run --record"

  package let path: String
  private var descriptor: Int32
  /// The clock whose own flow becomes `advance` steps (the store's, else the app's).
  private let clock: any AdjustableTimeSource
  /// Its flow (time less the jumps) at the last step, in whole milliseconds.
  private var lastFlow: Int64
  private var size: Size?
  /// Why writing stopped, once it did; the session goes on without the recording.
  package private(set) var failure: String?
  /// Told once, when writing fails (the status bar).
  package var onFailure: (String) -> Void = { _ in }

  private init(path: String, descriptor: Int32, clock: any AdjustableTimeSource, start: Date) {
    self.path = path
    self.descriptor = descriptor
    self.clock = clock
    lastFlow = Self.flow(start, clock)
  }

  deinit { if descriptor >= 0 { close(descriptor) } }

  /// The clock's time less every jump, in whole milliseconds (the store keeps milliseconds).
  private static func flow(_ now: Date, _ clock: any AdjustableTimeSource) -> Int64 {
    Int64(((now.timeIntervalSince1970 - clock.advancedSeconds) * 1000).rounded())
  }


  /// Why `path` may not be (re)written, if it may not: it exists and is not a recording.
  package static func refusal(_ path: String) -> String? {
    if path.isEmpty { return "--record needs a file path, e.g. --record session.play" }
    // `play --record` writes an asciicast; `run --record` a script: a .cast name here is that mix-up.
    if path.hasSuffix(".cast") {
      return "--record \(quoting: path): 'run --record' writes a play script (e.g. session.play); for an asciicast record its replay: paywall-tui play session.play --record demo.cast"
    }
    var info = stat()
    guard lstat(path, &info) == 0 else { return nil }
    guard info.st_mode & S_IFMT == S_IFREG else {
      return "--record \(quoting: path) exists and is not a regular file; give a new file name, e.g. --record session.play"
    }
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
    guard fd >= 0 else { return "--record \(quoting: path) exists and cannot be read (\(String(cString: strerror(errno)))); give a new file name" }
    defer { close(fd) }
    var buffer = [UInt8](repeating: 0, count: 4096)
    let count = read(fd, &buffer, buffer.count)
    let lines = String(decoding: buffer.prefix(max(0, count)), as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
    if lines.count > 1, lines[1].hasPrefix(marker) { return nil }
    return "--record \(quoting: path) exists and is not a recording made by 'run --record' (its second line is not '\(marker)…'); give a new file name or remove that file"
  }

  /// Starts a recording at `path`: the header is written to a temporary file beside it, fsynced
  /// and renamed over `path` (an old recording is replaced whole, never half), then steps append.
  /// `arguments` are the `# args:` line's for the clock's time now (one reading, from which the
  /// first `advance` counts too). `version` is the program's, which the header names.
  package static func start(path: String, arguments: (Date) -> [String], clock: any AdjustableTimeSource, notes: [String],
                            version: String) throws(PlayFailure) -> SessionRecorder {
    if let refusal = refusal(path) { throw PlayFailure.usage(refusal) }
    let directory = path.lastIndex(of: "/").map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
    let name = path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
    // Its missing folders are made, as for every other file paywall-tui writes (`mkdir -p`).
    if let why = FileSystem.makeDirectories(directory) {
      throw PlayFailure.usage("--record \(quoting: path): cannot create \(directory) (\(why))")
    }
    let temporary = directory + "/" + AtomicFile.temporaryPrefix + name + "-\(getpid())"
    let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
    guard fd >= 0 else {
      throw PlayFailure.usage("--record \(quoting: path): cannot write in \(directory) (\(String(cString: strerror(errno))))")
    }
    let now = clock.now
    let recorder = SessionRecorder(path: path, descriptor: fd, clock: clock, start: now)
    let header = [
      "# args: " + arguments(now).map(Self.argumentWord).joined(separator: " "),
      "\(marker) (paywall-tui \(version), \(StoreDates.iso8601(Date()))); replay: paywall-tui play \(ShellWord.quoted(path)) --screen",
    ] + notes.map { "# note: \($0)" }
    recorder.append(header)
    if let failure = recorder.failure {
      unlink(temporary)
      throw PlayFailure(message: "error: --record \(quoting: path): \(failure)", status: .failed)
    }
    guard rename(temporary, path) == 0 else {
      let why = String(cString: strerror(errno))
      unlink(temporary)
      throw PlayFailure(message: "error: --record \(quoting: path): cannot create it (\(why))", status: .failed)
    }
    let directoryFD = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    if directoryFD >= 0 {
      fsync(directoryFD)
      close(directoryFD)
    }
    return recorder
  }

  /// A word of the `# args:` line as `Scenario.words` reads it back: in double quotes when it
  /// holds a space (a word with a double quote cannot be written there).
  package static func argumentWord(_ word: String) -> String {
    word.contains(" ") || word.isEmpty ? "\"\(word)\"" : word
  }

  /// A command controller's answers and status changes become `answer` and `status` steps, so
  /// the replay needs no process (it runs `--controller scripted`, every answer given ahead).
  package var answersFromController = false
  /// The lines of the message being handled, written once it is known whether it started a request.
  private var current: [String] = []
  /// Steps after a key that started a command controller's request, held until its answer
  /// comes: the `answer` step must come before that key. With the flow when the request started.
  private var held: (lines: [String], started: Int64, request: RecordedAnswer.Request)?

  /// Before `message` is handled: a key or a resize becomes a step, after the time since the
  /// last step (the clock's own flow); a command controller's answer or status too.
  package func willDispatch(_ message: AppMessage) {
    current = []
    switch message {
    case .key(let key):
      current = elapsed() + ["press \(Self.scriptName(key))"]
    case .resized(let new) where new != size:
      size = new
      current = elapsed() + ["resize \(new.width)x\(new.height)"]
    case .presentation(.statusChanged(let status)) where answersFromController:
      current = elapsed() + ["status \(status)"]
    case .presentation(.purchaseFinished(let result)) where answersFromController:
      answered(RecordedAnswer(purchase: result, seconds: 0))
    case .presentation(.restoreFinished(let result, _)) where answersFromController:
      answered(RecordedAnswer(restore: result, seconds: 0))
    default:
      break
    }
  }

  /// After `message` was handled (`effects` are what it asked for): its lines are written, or
  /// held while a command controller's request is out.
  package func didDispatch(_ message: AppMessage, effects: [AppEffect]) {
    defer { current = [] }
    guard !current.isEmpty else { return }
    if held != nil {
      held?.lines += current
      return
    }
    if answersFromController, let request = effects.lazy.compactMap(RecordedAnswer.Request.init).first {
      held = (current, lastFlow, request)
      return
    }
    append(current)
  }

  /// The answer to the request out: `answer …` with the time it took, then the steps held.
  private func answered(_ answer: RecordedAnswer) {
    var answer = answer
    let lines = elapsed()
    guard let request = held, request.request == answer.request else {
      // An answer to no key of ours (a request started before the recording): the time only.
      current = lines
      return
    }
    held = nil
    answer.seconds = Double(lastFlow - request.started) / 1000
    append([answer.line] + request.lines + lines)
  }

  private func elapsed() -> [String] {
    let flow = Self.flow(clock.now, clock)
    defer { lastFlow = max(lastFlow, flow) }
    return flow > lastFlow ? ["advance \(flow - lastFlow)ms"] : []
  }

  /// The end of a session that ended normally: what the tester saw, pinned, so the replay says
  /// whether it still happens (`expect status`, and a distinctive line of the screen).
  package func finish(_ state: AppState) {
    // A request still out: its key is written without an answer (the replay's controller answers).
    if let request = held {
      held = nil
      append(request.lines)
    }
    var lines = ["# the session ended here; what it showed:", "expect status \(state.status)"]
    if let line = Self.distinctiveLine(AppView.render(state, size: state.size)) { lines.append("expect screen \"\(line)\"") }
    append(lines)
  }

  /// The row with the most letters (the status bar left out: it holds passing notices), trimmed
  /// of spaces and box borders: a title, a closed paywall's result, an alert's message; nil when
  /// none can be written as `expect screen` (a double quote or `#` in it).
  package static func distinctiveLine(_ frame: Frame) -> String? {
    let borders = Set("│║┃|╭╮╰╯┌┐└┘─ ")
    var best: (text: String, letters: Int)?
    for row in frame.lines.dropLast() {
      var text = Substring(row)
      while let first = text.first, borders.contains(first) { text = text.dropFirst() }
      while let last = text.last, borders.contains(last) { text = text.dropLast() }
      let letters = text.filter(\.isLetter).count
      guard letters >= 6, letters > (best?.letters ?? 0), !text.contains("\""), !text.contains("#") else { continue }
      best = (String(text), letters)
    }
    return best?.text
  }

  /// How a script names the key (`Key(name:)` reads it back): `#` would start a comment.
  package static func scriptName(_ key: Key) -> String {
    if case .character("#") = key { return "hash" }
    return key.description
  }

  /// Appends lines and fsyncs; the first failure stops the recording and is told once.
  private func append(_ lines: [String]) {
    guard failure == nil, descriptor >= 0, !lines.isEmpty else { return }
    let bytes = Array((lines.joined(separator: "\n") + "\n").utf8)
    var written = 0
    while written < bytes.count {
      let count = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
      if count < 0 && errno == EINTR { continue }
      guard count > 0 else { return stop("cannot write (\(String(cString: strerror(errno))))") }
      written += count
    }
    if fsync(descriptor) != 0 { stop("cannot save (fsync: \(String(cString: strerror(errno))))") }
  }

  private func stop(_ why: String) {
    failure = why
    close(descriptor)
    descriptor = -1
    onFailure("recording stopped: \(path): \(why)")
  }
}
