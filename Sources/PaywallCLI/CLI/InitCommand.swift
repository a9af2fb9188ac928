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

/// `paywall-tui init [DIR]`: a small working project to start from (a catalog, two paywalls, an
/// app.json with a campaign and a win-back on `transaction_abandon`, one scenario, and the JSON
/// Schemas its `$schema` keys name), which `validate --strict`, `run`, `play` and `test` accept as
/// written; `--demo` writes the demo project (`EmbeddedDemo`) instead. It writes only files that
/// do not exist yet, and none if any does.
package struct InitCommand: CLICommand {
  package static let spec = CommandSpec(
    name: "init",
    abstract: "Create a small working project in DIR (default: the current directory) to start from.",
    discussion: """
      Writes app.json, catalog.json, main.json, winback.json, scenarios/buy-annual.play and the
      JSON Schemas (app.schema.json, catalog.schema.json, paywall.schema.json) that the files'
      "$schema" keys name, so an editor checks them as you type. Refuses, writing nothing, when
      any of those files exists already. DIR may exist (other files in it are left alone).
      With --demo it writes the demo project instead (the one 'paywall-tui demo' shows: app.json
      with six placements, catalog.json and the same products as acme.storekit, three paywalls),
      to edit and run as your own.
      """,
    positionals: [PositionalSpec(name: "dir", help: "Where to create the project (default: the current directory).", count: .optional,
                                 values: .directory)],
    options: [InitFlags.demo.option],
    examples: [
      "paywall-tui init my-paywalls             # then: cd my-paywalls && paywall-tui run .",
      "paywall-tui init                         # in the current directory",
      "paywall-tui init --demo acme             # the demo project, to edit: paywall-tui run acme --watch",
    ]
  )

  package var directory: String
  /// `--demo`: the demo project built into the binary, not the starter project.
  package var demo: Bool

  package init(_ arguments: Arguments) {
    directory = arguments.positionals.first ?? "."
    demo = arguments[InitFlags.demo]
  }

  package func run() async throws {
    let name = demo ? "the demo project (Acme Notes)" : Self.projectName(for: directory)
    let files = demo ? EmbeddedDemo.files : Self.files(name: name)
    // lstat, not stat: a symbolic link is there even when what it names is not (a dangling link
    // would otherwise be replaced by the file, and the user's link lost).
    let existing = files.map(\.path).filter { FileSystem.entryExists((directory).appendingPathComponent($0)) }
    guard existing.isEmpty else {
      throw CLIFailure.usage("\(directory) already has \(existing.map { "\(quoting: $0)" }.joined(separator: ", ")); nothing was written (give an empty or new directory)")
    }
    // The folders init makes inside DIR (scenarios/): one that is there must lead to a directory.
    for folder in Set(files.map { ($0.path).deletingLastPathComponent }.filter { !$0.isEmpty }).sorted() {
      let path = (directory).appendingPathComponent(folder)
      if FileSystem.entryExists(path), !FileSystem.isDirectory(path) {
        throw CLIFailure.usage("\(directory) already has \(quoting: folder), which is not a directory (or is a link to nothing); nothing was written (give an empty or new directory)")
      }
    }
    var isDirectory: Bool = false
    if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), !isDirectory {
      throw CLIFailure.usage("\(quoting: directory) is a file; give a directory")
    }
    // The nearest part of the path that exists must be a directory we may write in.
    var ancestor = directory
    while !FileManager.default.fileExists(atPath: ancestor), ancestor != "/", !ancestor.isEmpty {
      if FileSystem.entryExists(ancestor) {
        throw CLIFailure.usage("\(quoting: ancestor) is a link to something that does not exist; give another DIR")
      }
      let parent = (ancestor).deletingLastPathComponent
      ancestor = parent.isEmpty ? "." : parent
    }
    if FileManager.default.fileExists(atPath: ancestor, isDirectory: &isDirectory), !isDirectory {
      throw CLIFailure.usage("\(quoting: ancestor) is a file, so \(quoting: directory) cannot be a directory; give another DIR")
    }
    if access(ancestor, W_OK | X_OK) != 0 {
      throw CLIFailure.invalid("error: cannot write in \(quoting: ancestor): \(String(cString: strerror(errno))); give a DIR you may write in")
    }
    var written: [String] = []
    var createdDirectories: [String] = []
    do {
      for file in files {
        let path = (directory).appendingPathComponent(file.path)
        let parent = (path).deletingLastPathComponent
        if !FileManager.default.fileExists(atPath: parent) {
          try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
          createdDirectories.append(parent)
        }
        // Never over anything put there since the check above.
        try AtomicFile.write(file.text, to: path, replacing: false)
        written.append(path)
      }
    } catch {
      // Nothing half-written: take back what this run wrote.
      for path in written { try? FileManager.default.removeItem(atPath: path) }
      for path in createdDirectories.reversed() { try? FileManager.default.removeItem(atPath: path) }
      throw CLIFailure.invalid("error: cannot write the project in \(directory): \(Self.reason(error)); nothing was left behind")
    }
    var next: [String] = directory == "." ? [] : ["cd \(ShellWord.quoted(directory))"]
    next += ["paywall-tui validate .   # check it (editors check it too, through the schemas)",
             "paywall-tui run .        # try it: '?' lists the keys, 'd' opens the store's debug panel"]
    // The demo has no scenarios of its own (the source tree's scenarios/ replay it from there).
    if !demo { next.append("paywall-tui test         # replay scenarios/ as CI does") }
    try Console.out((["created \(name) in \(directory): \(files.map(\.path).joined(separator: ", "))", "next:"]
      + next.map { "  " + $0 }).joined(separator: "\n"))
  }

  /// Why a write failed, in the system's words ("Permission denied", "Not a directory"), not
  /// Foundation's error dump.
  package static func reason(_ error: any Error) -> String {
    if let write = error as? AtomicFile.WriteError { return write.reason }
    return systemReason(error)
  }

  /// The project's name: the directory's own name, else "My App".
  package static func projectName(for directory: String) -> String {
    let last = URL(fileURLWithPath: directory).standardizedFileURL.lastPathComponent
    let words = last.split(whereSeparator: { $0 == "-" || $0 == "_" || $0 == " " }).map { $0.prefix(1).uppercased() + $0.dropFirst() }
    let name = words.joined(separator: " ")
    return name.isEmpty || name == "/" ? "My App" : String(name.prefix(60))
  }

  /// Every file `init` writes, relative to the directory, with its text.
  package static func files(name: String) -> [(path: String, text: String)] {
    Schemas.all.map { ("\($0.name).schema.json", $0.text + "\n") } + [
      ("app.json", """
        {
          "$schema": "app.schema.json",
          "name": \(JSONText.quote(name)),
          "catalog": "catalog.json",
          "paywalls": ["main.json", "winback.json"],
          "campaigns": [
            { "placement": "upgrade", "audiences": [
              { "filter": "device.subscriptionStatus != \\"ACTIVE\\"", "paywall": "main" }
            ] },
            { "placement": "transaction_abandon", "audiences": [{ "paywall": "winback" }] }
          ]
        }

        """),
      ("catalog.json", """
        {
          "$schema": "catalog.schema.json",
          "currency": "USD",
          "locale": "en_US",
          "products": [
            { "id": "com.example.pro.annual", "name": "Annual", "price": "59.99", "period": "P1Y",
              "trial": "P1W", "group": "pro", "level": 1, "entitlements": ["pro"] },
            { "id": "com.example.pro.monthly", "name": "Monthly", "price": "9.99", "period": "P1M",
              "trial": "P3D", "group": "pro", "level": 2, "entitlements": ["pro"] },
            { "id": "com.example.pro.annual.winback", "name": "Annual (offer)", "price": "59.99", "period": "P1Y",
              "intro": { "mode": "payUpFront", "price": "29.99", "period": "P1Y" }, "group": "pro", "level": 1,
              "entitlements": ["pro"] }
          ]
        }

        """),
      ("main.json", """
        {
          "$schema": "paywall.schema.json",
          "id": "main",
          "name": "Upgrade",
          "products": { "primary": "com.example.pro.annual", "secondary": "com.example.pro.monthly" },
          "selected": "primary",
          "featureGating": "gated",
          "components": [
            { "type": "title", "text": "Go Pro" },
            { "type": "text", "text": "{{ products.selected.price }} per {{ products.selected.period }}",
              "freeTrialText": "Try {{ products.selected.trialPeriodText }} free, then {{ products.selected.price }}/{{ products.selected.period }}" },
            { "type": "features", "items": ["Everything unlocked", "Sync on every device"] },
            { "type": "products" },
            { "type": "button", "label": "Continue", "freeTrialLabel": "Start my free trial", "action": "purchase" },
            { "type": "button", "label": "Restore purchases", "action": "restore" },
            { "type": "button", "label": "Not now", "action": "close" }
          ]
        }

        """),
      ("winback.json", """
        {
          "$schema": "paywall.schema.json",
          "id": "winback",
          "name": "Win-back offer",
          "products": { "primary": "com.example.pro.annual.winback" },
          "featureGating": "gated",
          "components": [
            { "type": "title", "text": "Wait: half price for your first year" },
            { "type": "text", "text": "{{ primary.trialPeriodPrice }} for a year, then {{ primary.price }}/{{ primary.period }}." },
            { "type": "products" },
            { "type": "button", "label": "Claim the offer", "action": "purchase" },
            { "type": "button", "label": "Restore purchases", "action": "restore" },
            { "type": "button", "label": "No thanks", "action": "close" }
          ]
        }

        """),
      ("scenarios/buy-annual.play", """
        # args: .. --home --controller simulated --status inactive
        # Register 'upgrade', buy the annual plan (its free week), and a week later it renews.
        placement upgrade
        expect event paywall_open paywall_id=main
        press enter
        expect event freeTrial_start product_id=com.example.pro.annual
        expect event feature.run placement=upgrade
        expect status active:pro
        advance 8d
        expect subscription com.example.pro.annual paid

        """),
    ]
  }
}

/// `paywall-tui schema NAME`: one of the project files' JSON Schemas, to save where an editor finds it.
package struct SchemaCommand: CLICommand {
  package static let spec = CommandSpec(
    name: "schema",
    abstract: "Print the JSON Schema of app.json, a catalog or a paywall (app, catalog, paywall).",
    discussion: "Save it beside your files and name it in their \"$schema\" key, so an editor checks them as you type.",
    positionals: [PositionalSpec(name: "name", help: "app, catalog or paywall.", count: .one, values: .words(Schemas.all.map(\.name)))],
    examples: [
      "paywall-tui schema paywall > paywall.schema.json   # then \"$schema\": \"paywall.schema.json\"",
    ]
  )

  package var name: String

  package init(_ arguments: Arguments) {
    name = arguments.positionals.first ?? ""
  }

  package func run() async throws {
    let names = Schemas.all.map(\.name)
    guard let schema = Schemas.all.first(where: { $0.name == name }) else {
      throw CLIFailure.usage("no schema \(quoting: name)\(Suggestions.hint(for: name, in: names)); use \(names.joined(separator: ", "))")
    }
    try Console.out(schema.text)
  }
}

/// `init`'s options.
package enum InitFlags {
  package static let demo = Flag.bool("demo", "Write the demo project (the Acme Notes paywalls 'paywall-tui demo' shows) instead of the starter project.")
}
