#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials) && !PAYWALL_FULL_FOUNDATION
import FoundationEssentials
#else
import Foundation
#endif
import PaywallModel

/// `--watch`: loads the project again whenever one of its files is saved, on a thread of its own
/// (never the app's loop), and hands each result on. The files are those the last load read (the
/// paywalls, the catalog or `.storekit`, `app.json`, for a paywall file the `app.json` beside it)
/// and, for a project directory, any `.json` or `.storekit` file in it; while the project does not load, the files of the last good load stay
/// watched too, so fixing any of them is seen. A file that is a link is watched at its target too,
/// resolved again at each reload (`FileWatcher.watch`). The files the command writes itself (the
/// state directory's files, `--events`, `render --out`) never count, wherever they are: a project
/// that holds them is not reloaded by its own session. A project directory moved aside and made
/// again is watched again by its path.
package final class ProjectWatch: Sendable {
  private let watcher: FileWatcher
  private let path: String
  private let catalog: String?
  private let sdk: SDKChoice
  private let initial: [FileWatcher.Target]

  /// Watches the files of `loaded`, the load of `path` (with `--catalog` `catalog`, for the
  /// release `sdk` chooses) that started it; `ignoring`: the files the command writes.
  package init(path: String, catalog: String?, sdk: SDKChoice = SDKChoice(), loaded: ProjectLoadResult,
               ignoring: [String] = []) throws(FileWatcher.Failure) {
    self.path = path
    self.catalog = catalog
    self.sdk = sdk
    initial = Self.targets(path: path, catalog: catalog, project: loaded.project, diagnostics: loaded.diagnostics, previous: [])
    watcher = try FileWatcher(initial, ignoring: ignoring)
  }

  /// Starts `run` on a thread of its own. False when the system refuses a thread.
  @discardableResult
  package func start(_ handle: @escaping @Sendable (ProjectLoadResult) -> Void) -> Bool {
    DetachedThread.start("project-watch") { [self] in run(handle) }
  }

  /// On this thread, until `stop`: each save loads the project again and `handle` gets the result.
  package func run(_ handle: (ProjectLoadResult) -> Void) {
    var targets = initial
    while let result = nextLoad(&targets) { handle(result) }
  }

  /// `run` for an async caller (`render --watch --states` plays each state).
  package func run(_ handle: (ProjectLoadResult) async -> Void) async {
    var targets = initial
    while let result = nextLoad(&targets) { await handle(result) }
  }

  /// Waits for the next save and loads the project again; nil once stopped.
  private func nextLoad(_ targets: inout [FileWatcher.Target]) -> ProjectLoadResult? {
    guard watcher.waitForChange() != nil else { return nil }
    let result = ProjectLoader.load(path: path, catalogPath: catalog, sdk: sdk)
    targets = Self.targets(path: path, catalog: catalog, project: result.project, diagnostics: result.diagnostics,
                           previous: result.project == nil ? targets : [])
    // A file the load now names, in a directory not watched yet, is watched from here on.
    try? watcher.watch(targets)
    return result
  }

  /// Ends the watching thread (a load in progress finishes first, its result still handed on).
  package func stop() { watcher.stop() }

  /// What to watch for a load of `path`: the path itself (a directory: every project file in it),
  /// `--catalog`, the catalog and paywall files the load read, the files its diagnostics name, and
  /// `previous` (the last good load's, while this one failed: kept even when their directory is
  /// gone, so a project directory moved aside is watched again once it is back). Of the others,
  /// only files whose directory exists.
  package static func targets(path: String, catalog: String?, project: Project?, diagnostics: [Diagnostic],
                      previous: [FileWatcher.Target]) -> [FileWatcher.Target] {
    var targets: [FileWatcher.Target] = []
    func add(_ target: FileWatcher.Target) {
      if !targets.contains(target) { targets.append(target) }
    }
    if isDirectory(path) {
      add(.directory(path))
    } else {
      add(.file(path))
      // A paywall file's catalog may come from the app.json beside it.
      add(.file(parent(of: path) + "/" + ProjectLoader.projectFileName))
    }
    if let catalog { add(.file(catalog)) }
    if let project {
      add(.file(project.catalog.file))
      for paywall in project.paywalls { add(.file(paywall.file)) }
    }
    for diagnostic in diagnostics where !isDirectory(diagnostic.file) { add(.file(diagnostic.file)) }
    targets = targets.filter { target in
      switch target {
      case .directory(let directory): isDirectory(directory)
      case .file(let file): isDirectory(parent(of: file))
      }
    }
    for target in previous { add(target) }
    return targets
  }

  private static func parent(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
  }

  private static func isDirectory(_ path: String) -> Bool {
    var info = stat()
    return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
  }
}
