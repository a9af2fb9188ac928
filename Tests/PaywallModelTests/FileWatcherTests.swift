import Foundation
import PaywallModel
import Synchronization
import Testing

/// `FileWatcher` against the ways editors save: each gives one change, a burst gives one, a file
/// outside the set gives none. Waits are bounded; a change normally arrives in tens of ms.
@Suite final class FileWatcherTests: Sendable {
  let directory: String
  let file: String

  init() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("file-watcher-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    file = directory + "/paywall.json"
    try #"{"id": "a"}"#.write(toFile: file, atomically: false, encoding: .utf8)
  }

  /// Each test's folders go when it ends (`-shared`, `-moved` and `.old` are folders a test makes beside it).
  deinit {
    for folder in [directory, directory + "-shared", directory + "-moved", directory + ".old"] { try? FileManager.default.removeItem(atPath: folder) }
  }

  func watcher(_ targets: [FileWatcher.Target]? = nil) throws -> FileWatcher {
    try FileWatcher(targets ?? [.file(file)], debounce: .milliseconds(40))
  }

  /// Writes `text` over `path` in place: opened, truncated, written, closed.
  static func writeInPlace(_ text: String, to path: String) {
    let fd = open(path, O_WRONLY | O_TRUNC | O_CREAT, 0o644)
    _ = text.withCString { write(fd, $0, strlen($0)) }
    close(fd)
  }

  @Test func aWriteInPlaceIsAChange() throws {
    let watcher = try watcher()
    Self.writeInPlace(#"{"id": "b"}"#, to: file)
    #expect(watcher.waitForChange(timeout: .seconds(5)) == [file])
  }

  @Test func aTemporaryFileRenamedOverIsAChange() throws {
    let watcher = try watcher()
    Self.writeInPlace(#"{"id": "b"}"#, to: directory + "/.paywall.json.swp")
    #expect(rename(directory + "/.paywall.json.swp", file) == 0)
    #expect(watcher.waitForChange(timeout: .seconds(5)) == [file])
    // The file renamed in is watched as the old one was: the next save is seen too.
    Self.writeInPlace(#"{"id": "c"}"#, to: file)
    #expect(watcher.waitForChange(timeout: .seconds(5)) == [file])
  }

  @Test func truncateThenWriteInTwoStepsIsOneChange() throws {
    let watcher = try watcher()
    let fd = open(file, O_WRONLY | O_TRUNC)
    usleep(10_000)
    _ = #"{"id": "b"}"#.withCString { write(fd, $0, strlen($0)) }
    close(fd)
    #expect(watcher.waitForChange(timeout: .seconds(5)) == [file])
    #expect(watcher.waitForChange(timeout: .milliseconds(200)) == nil, "the two steps were one change")
  }

  @Test func deleteAndCreateAgainIsAChange() throws {
    let watcher = try watcher()
    #expect(unlink(file) == 0)
    #expect(watcher.waitForChange(timeout: .seconds(5)) == [file])
    Self.writeInPlace(#"{"id": "b"}"#, to: file)
    #expect(watcher.waitForChange(timeout: .seconds(5)) == [file])
  }

  @Test func aBurstOfWritesIsOneChange() throws {
    let watcher = try watcher()
    for n in 0..<10 {
      Self.writeInPlace(#"{"id": "\#(n)"}"#, to: file)
      usleep(5_000)
    }
    #expect(watcher.waitForChange(timeout: .seconds(5)) == [file])
    #expect(watcher.waitForChange(timeout: .milliseconds(200)) == nil)
  }

  @Test func filesOutsideTheSetAreNotAChange() throws {
    let watcher = try watcher()
    Self.writeInPlace("{}", to: directory + "/other.json")
    Self.writeInPlace("x", to: directory + "/paywall.json~")
    Self.writeInPlace("x", to: directory + "/4913")
    #expect(watcher.waitForChange(timeout: .milliseconds(300)) == nil)
  }

  @Test func aDirectoryCountsItsProjectFilesOnly() throws {
    let watcher = try watcher([.directory(directory)])
    Self.writeInPlace("x", to: directory + "/.notes.swp")
    Self.writeInPlace("x", to: directory + "/README")
    #expect(watcher.waitForChange(timeout: .milliseconds(300)) == nil)
    Self.writeInPlace("{}", to: directory + "/new.json")
    #expect(watcher.waitForChange(timeout: .seconds(5)) == [directory + "/new.json"])
    Self.writeInPlace("{}", to: directory + "/acme.storekit")
    #expect(watcher.waitForChange(timeout: .seconds(5)) == [directory + "/acme.storekit"])
  }

  @Test func watchingAnotherSetTakesEffect() throws {
    let watcher = try watcher()
    let other = directory + "-shared"
    try FileManager.default.createDirectory(atPath: other, withIntermediateDirectories: true)
    try watcher.watch([.file(other + "/catalog.json")])
    Self.writeInPlace("{}", to: file)
    #expect(watcher.waitForChange(timeout: .milliseconds(300)) == nil, "no longer in the set")
    Self.writeInPlace("{}", to: other + "/catalog.json")
    #expect(watcher.waitForChange(timeout: .seconds(5)) == [other + "/catalog.json"])
  }

  /// `dir` and `dir/.` are one directory to the kernel (one watch descriptor): a file named
  /// through either is seen, both in one change, each reported as it was given.
  @Test func oneDirectoryNamedTwoWaysLosesNoFile() throws {
    let catalog = directory + "/./catalog.json"
    Self.writeInPlace("{}", to: catalog)
    let watcher = try watcher([.file(file), .file(catalog)])
    Self.writeInPlace(#"{"id": "b"}"#, to: file)
    Self.writeInPlace(#"{"products": []}"#, to: catalog)
    #expect(watcher.waitForChange(timeout: .seconds(5)) == [file, catalog])
    // A directory watched whole under one name, a file in it under another.
    try watcher.watch([.directory(directory + "/"), .file(catalog)])
    Self.writeInPlace("{}", to: catalog)
    Self.writeInPlace("{}", to: directory + "/new.json")
    #expect(watcher.waitForChange(timeout: .seconds(5)) == [catalog, directory + "/catalog.json", directory + "/new.json"])
  }

  /// A file that is a symbolic link changes when its target is edited, wherever that is; after a
  /// `watch` again (a reload), a link pointed elsewhere follows its new target.
  @Test func aLinkedFileIsWatchedWhereItsTargetIs() throws {
    let shared = directory + "-shared", moved = directory + "-moved"
    for folder in [shared, moved] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
    Self.writeInPlace("{}", to: shared + "/catalog.json")
    Self.writeInPlace("{}", to: moved + "/catalog.json")
    let link = directory + "/catalog.json"
    #expect(symlink("../" + (shared as NSString).lastPathComponent + "/catalog.json", link) == 0)
    let watcher = try watcher([.file(link)])
    Self.writeInPlace(#"{"products": []}"#, to: shared + "/catalog.json")
    #expect(watcher.waitForChange(timeout: .seconds(5)) == [link], "an edit of the target in place")
    try #"{"products": [1]}"#.write(toFile: shared + "/catalog.json", atomically: true, encoding: .utf8)
    #expect(watcher.waitForChange(timeout: .seconds(5)) == [link], "a save of the target by a rename")

    // The link repointed (a new link renamed over it) is a change of the link.
    #expect(symlink(moved + "/catalog.json", directory + "/.catalog.json.new") == 0)
    #expect(rename(directory + "/.catalog.json.new", link) == 0)
    #expect(watcher.waitForChange(timeout: .seconds(5)) == [link])
    try watcher.watch([.file(link)])
    Self.writeInPlace(#"{"products": []}"#, to: moved + "/catalog.json")
    #expect(watcher.waitForChange(timeout: .seconds(5)) == [link], "the new target")
    Self.writeInPlace("{}", to: shared + "/catalog.json")
    #expect(watcher.waitForChange(timeout: .milliseconds(300)) == nil, "the old target no longer counts")
  }

  @Test func stopEndsAWaitFromAnotherThread() throws {
    let watcher = try watcher()
    let ended = DispatchSemaphore(value: 0)
    let result = Mutex<Set<String>??>(nil)
    Thread.detachNewThread {
      let change = watcher.waitForChange()
      result.withLock { $0 = .some(change) }
      ended.signal()
    }
    usleep(50_000)
    watcher.stop()
    #expect(ended.wait(timeout: .now() + 5) == .success)
    #expect(result.withLock { $0 } == .some(nil))
  }

  /// A log (or the app's own events file) written without pause beside the project: only the
  /// watched names hold a change back, so a save is reported within half a second however busy
  /// the directory is, and a watched name written without pause is still reported in that time.
  @Test func aSaveIsSeenWhileAnotherFileKeepsChanging() throws {
    let watcher = try watcher([.directory(directory)])
    let running = Atomic<Bool>(true)
    let finished = DispatchSemaphore(value: 0)
    let directory = self.directory
    Thread.detachNewThread {
      let log = open(directory + "/app.log", O_WRONLY | O_CREAT | O_APPEND, 0o644)
      while running.load(ordering: .relaxed) {
        _ = "line\n".withCString { write(log, $0, strlen($0)) }
        usleep(2_000)
      }
      close(log)
      finished.signal()
    }
    defer { running.store(false, ordering: .relaxed); finished.wait() }
    usleep(100_000)
    let saved = ContinuousClock.now
    Self.writeInPlace(#"{"id": "b"}"#, to: file)
    #expect(watcher.waitForChange(timeout: .seconds(3)) == [directory + "/paywall.json"])
    #expect(ContinuousClock.now - saved < .milliseconds(500), "reported \(ContinuousClock.now - saved) after the save")

    // A watched name that never rests (a generated file saved every few ms) is reported too.
    let busy = Atomic<Bool>(true)
    let busyDone = DispatchSemaphore(value: 0)
    let generated = directory + "/generated.json"
    Thread.detachNewThread {
      while busy.load(ordering: .relaxed) { Self.writeInPlace("{}", to: generated); usleep(5_000) }
      busyDone.signal()
    }
    defer { busy.store(false, ordering: .relaxed); busyDone.wait() }
    let started = ContinuousClock.now
    #expect(watcher.waitForChange(timeout: .seconds(3))?.contains(directory + "/generated.json") == true)
    #expect(ContinuousClock.now - started < .milliseconds(500))
  }

  /// Files the app writes itself (its state files, its --events file, render's --out) in a
  /// watched directory are never a change, even under a watched name.
  @Test func ignoredFilesAreNeverAChange() throws {
    let watcher = try FileWatcher([.directory(directory), .file(file)], ignoring: [directory + "/status.json", directory + "/./out.json"])
    Self.writeInPlace("{}", to: directory + "/status.json")
    try #"{"a": 1}"#.write(toFile: directory + "/out.json", atomically: true, encoding: .utf8)
    #expect(watcher.waitForChange(timeout: .milliseconds(300)) == nil)
    Self.writeInPlace("{}", to: directory + "/other.json")
    #expect(watcher.waitForChange(timeout: .seconds(5)) == [directory + "/other.json"])
  }

  /// The app's own `--events` file appended to again and again inside a watched project, and a
  /// temporary file made and removed beside it (an editor's, a tool's), are no change; a save
  /// after them is exactly the file saved. (kqueue names no entry in a directory's event: each
  /// counted file's inode, size and time tell which changed.)
  @Test func appendsToAnIgnoredFileAndTemporaryFilesAreNoChange() throws {
    let events = directory + "/events.json"
    let watcher = try FileWatcher([.directory(directory), .file(file)], ignoring: [events])
    let log = open(events, O_WRONLY | O_CREAT | O_APPEND, 0o644)
    defer { close(log) }
    for n in 0..<20 {
      _ = #"{"event": "\#(n)"}\#n"#.withCString { write(log, $0, strlen($0)) }
      if n % 5 == 0 {
        Self.writeInPlace("x", to: directory + "/.tmp-\(n)")
        #expect(unlink(directory + "/.tmp-\(n)") == 0)
      }
      usleep(5_000)
    }
    #expect(watcher.waitForChange(timeout: .milliseconds(300)) == nil)
    Self.writeInPlace(#"{"id": "b"}"#, to: file)
    #expect(watcher.waitForChange(timeout: .seconds(5)) == [file])
    #expect(watcher.waitForChange(timeout: .milliseconds(200)) == nil)
  }

  /// A project directory moved aside (`mv p p.old`) and made again, or deleted and made again, is
  /// watched again by its path: the move is a change, and so is every save in the new directory.
  @Test(arguments: ["move", "delete"]) func aDirectoryMovedAsideAndMadeAgainIsWatchedAgain(_ how: String) throws {
    let watcher = try watcher([.directory(directory), .file(file)])
    if how == "move" {
      #expect(rename(directory, directory + ".old") == 0)
    } else {
      try FileManager.default.removeItem(atPath: directory)
    }
    #expect(watcher.waitForChange(timeout: .seconds(5))?.contains(file) == true, "the files are gone from the path")
    #expect(watcher.waitForChange(timeout: .milliseconds(200)) == nil)
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    Self.writeInPlace(#"{"id": "new"}"#, to: file)
    // The directory coming back, then the file in it: one change or two, the file is in it.
    var seen: Set<String> = []
    let deadline = ContinuousClock.now + .seconds(5)
    while !seen.contains(file), ContinuousClock.now < deadline {
      seen.formUnion(watcher.waitForChange(timeout: .seconds(1)) ?? [])
    }
    #expect(seen.contains(file))
    // Saves in the new directory are seen as before.
    Self.writeInPlace(#"{"id": "again"}"#, to: directory + "/more.json")
    #expect(watcher.waitForChange(timeout: .seconds(5)) == [directory + "/more.json"])
    try? FileManager.default.removeItem(atPath: directory + ".old")
  }

  @Test func aDirectoryThatDoesNotExistIsOneClearError() throws {
    #expect(throws: FileWatcher.Failure.self) { try FileWatcher([.file("/nonexistent-\(UUID().uuidString)/app.json")]) }
  }
}
