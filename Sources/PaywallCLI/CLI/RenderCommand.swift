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
import PaywallScenarios
import TerminalCore
import PaywallUI

package enum ColorChoice: String, CaseIterable {
  case auto, always, never
}

package struct RenderCommand: CLICommand {
  package static let spec = CommandSpec(
    name: "render",
    abstract: "Print a paywall exactly as the interactive mode draws it, as text or as an SVG or HTML picture.",
    discussion: """
      --format svg or html writes the styled screen (the terminal's colours, bold and dim, the box drawing, wide \
      characters at two cells) as one standalone file a browser shows and a pull request embeds. --states draws the \
      paywall in every state a tester checks (each product selected, trial eligible and not, subscribed, the pending, \
      failure and restore alerts, 40x12 to 120x40), each reached through the app's real model as 'play' reaches it, on \
      one labelled sheet; --locale and --storefront switch the catalog as Xcode's StoreKit editor does, and several \
      of them give a section each.
      """,
    positionals: [PositionalSpec(name: "path", help: "A paywall file or a project directory (its first paywall, or --paywall).", count: .one)],
    options: ProjectFlags.all + RenderFlags.own,
    examples: [
      "paywall-tui render paywalls/plans.json --size 40x12         # a narrow terminal",
      "paywall-tui render paywalls --paywall winback --select secondary",
      "paywall-tui render paywalls/onboarding.json --catalog paywalls/acme.storekit --override primary=com.acme.pro.weekly --color always",
      "paywall-tui render paywalls --paywall winback --watch       # redrawn at each save of its files",
      "paywall-tui render paywalls --format svg --out onboarding.svg",
      "paywall-tui render paywalls --states --locale en_US,de_DE --out states.svg",
      "paywall-tui render paywalls --paywall plans --states --format html --storefront JPN > plans.html",
    ]
  )

  package var path: String
  package var project: ProjectOptions
  package var paywall: String?
  package var size: String
  package var select: String?
  package var color: ColorChoice
  package var watch: Bool
  package var format: PictureFormat?
  package var out: String?
  package var states: Bool
  package var locales: [String]
  package var storefronts: [String]
  /// `--platform`: the store a cross-platform project is drawn for (its catalog and products).
  package var platform: SDKPlatform?

  package init(_ arguments: Arguments) throws(CLIFailure) {
    watch = arguments[RenderFlags.watch]
    path = arguments.positionals[0]
    project = ProjectOptions(arguments)
    platform = try arguments[RenderFlags.platform]
    paywall = arguments[RenderFlags.paywall]
    size = arguments[RenderFlags.size]
    select = arguments[RenderFlags.select]
    color = try arguments[RenderFlags.color]
    format = try arguments[RenderFlags.format]
    out = arguments[RenderFlags.out]
    states = arguments[RenderFlags.states]
    locales = Self.list(arguments[RenderFlags.locale])
    storefronts = Self.list(arguments[RenderFlags.storefront])
    for storefront in storefronts {
      if let refusal = Catalog.refusal(storefront: storefront, locale: nil) { throw .usage(refusal) }
    }
    for locale in locales {
      if let refusal = Catalog.refusal(storefront: nil, locale: locale) { throw .usage(refusal) }
    }
    if states && format == .text { throw .usage("--states draws pictures: give --format svg or html (svg by default)") }
    // Each section is a dozen fresh sessions drawn at up to 120x40: every locale at once was a
    // 100 MB sheet after half a minute. A bound keeps a sheet something a browser opens.
    let sections = max(1, locales.count) * max(1, storefronts.count)
    if states && sections > Self.mostSections {
      throw .usage("--states with these --locale and --storefront values draws \(sections) sections; at most \(Self.mostSections) fit a sheet: give fewer, or draw several sheets")
    }
    if !states && (locales.count > 1 || storefronts.count > 1) {
      throw .usage("several --locale or --storefront values draw a sheet: add --states (or give one of each)")
    }
    if out != nil && arguments.isGiven(RenderFlags.color) { throw .usage("--color is for text on standard output; --out writes \(format == nil || format == .text ? "plain text" : "a picture")") }
  }

  /// The most locale × storefront sections one `--states` sheet draws.
  package static let mostSections = 12

  /// `--locale en_US,de_DE --locale fr_FR` → the three, in order, once each.
  package static func list(_ values: [String]) -> [String] {
    var seen: Set<String> = []
    return values.flatMap { $0.split(separator: ",").map { String($0).trimmingSpaces() } }.filter { !$0.isEmpty && seen.insert($0).inserted }
  }

  package func run() async throws {
    guard let size = Size(size) else {
      throw CLIFailure.usage("--size \(quoting: self.size) must be WIDTHxHEIGHT, e.g. 80x24")
    }
    // A device, a pipe or a link at --out is refused before anything is drawn, never replaced.
    if let out { try OutputPath.checkWritable(out, option: "out", example: "paywall.svg") }
    let overrides = try project.parsedOverrides()
    guard watch else {
      let loaded = try project.load(path, sdk: SDKChoice(platform: platform))
      if let platform, loaded.stores.count < 2, platform != loaded.options.sdk.platform {
        // As run and store say it: the project's one catalog is drawn under the other SDK.
        Console.warn("warning: --platform \(platform.rawValue): the project follows \(loaded.options.sdk.platform.sdkName) (app.json's options) and has one catalog; it is drawn with that catalog")
      }
      if states { return try await drawStates(loaded, size: size, overrides: overrides) }
      return try write(try document(of: loaded, size: size, overrides: overrides))
    }
    try await renderOnEverySave(size: size, overrides: overrides)
  }

  /// The paywall as --format asks (text, with colour when --color says so, or a picture), with
  /// --locale / --storefront applied.
  private func document(of loaded: Project, size: Size, overrides: [SlotOverride]) throws -> String {
    var localized = loaded
    localized.catalog = loaded.catalog.localized(storefront: storefronts.first, locale: locales.first)
    let screen = try Self.screen(for: localized, paywall: paywall, select: select, overrides: overrides)
    let frame = PaywallRenderer.render(screen, size: size)
    let format = self.format ?? out.flatMap(PictureFormat.init(extensionOf:)) ?? .text
    if format != .text || out != nil {
      return format.document(frame, title: "\(screen.paywall.definition.id) at \(size)")
    }
    let useColor = switch color {
    case .always: true
    case .never: false
    case .auto: isatty(STDOUT_FILENO) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
    }
    return useColor ? FrameText.ansi(frame) : FrameText.plain(frame)
  }

  /// `--watch`: the paywall now, then again after every save, until a signal ends the process. A
  /// project that does not load (or a paywall or slot it no longer has) prints its errors on
  /// stderr and waits for the next save.
  private func renderOnEverySave(size: Size, overrides: [SlotOverride]) async throws {
    let loaded = ProjectLoader.load(path: path, catalogPath: project.catalog, sdk: SDKChoice(platform: platform))
    // Its own drawing is no save (--out inside the project would draw itself again forever);
    // --out over a file the project is made of would replace the project with its picture.
    if let out, let read = Self.projectFile(at: out, of: loaded, path: path) {
      throw CLIFailure.usage("--out \(quoting: out) is \(read), a file of the project being watched; give another path, e.g. --out paywall.svg")
    }
    let watch = try RunCommand.watcher(path: path, catalog: project.catalog, sdk: SDKChoice(platform: platform), loaded: loaded,
                                       ignoring: [out].compactMap { $0 })
    let terminal = isatty(STDOUT_FILENO) == 1
    var first = true
    func show(_ result: ProjectLoadResult) async {
      // Home and clear the screen; a pipe or file gets a line between two renderings instead.
      if out != nil {
        // The picture goes to --out: standard output stays untouched.
      } else if terminal {
        try? Console.write("\u{1B}[H\u{1B}[2J", to: STDOUT_FILENO, target: OutputFailure.standardOutput)
      } else if !first {
        Console.outOrRecord("── saved: \(path) ──")
      }
      first = false
      for diagnostic in result.diagnostics { Console.warn(diagnostic.description) }
      guard let project = result.project else {
        Console.warn("error: \(path) does not load; fix it and save to render again")
        return
      }
      do {
        // --out is rewritten whole at each save (a picture a browser reloads); --states redraws the sheet.
        if states {
          try await drawStates(project, size: size, overrides: overrides)
        } else if out != nil {
          try write(try document(of: project, size: size, overrides: overrides))
        } else {
          Console.outOrRecord(try document(of: project, size: size, overrides: overrides))
        }
      } catch let failure as CLIFailure {
        Console.warn(failure.message)
      } catch let refusal as SessionError {
        Console.warn(refusal.message)
      } catch {
        Console.warn("error: \(error)")
      }
    }
    // Whoever reads stdout went away (a closed pipe): nothing more to draw for.
    await show(loaded)
    if Console.outputFailure != nil { return }
    await watch.run { result in
      await show(result)
      if Console.outputFailure != nil { watch.stop() }
    }
  }

  /// Which file of the project `out` is (the same file, by device and inode), if any.
  package static func projectFile(at out: String, of loaded: ProjectLoadResult, path: String) -> String? {
    func identity(_ file: String) -> [UInt64]? {
      var info = stat()
      return stat(file, &info) == 0 ? [UInt64(info.st_dev), UInt64(info.st_ino)] : nil
    }
    guard let written = identity(out) else { return nil }
    var files = [path, (path).appendingPathComponent(ProjectLoader.projectFileName)]
    if let project = loaded.project { files += [project.catalog.file] + project.paywalls.map(\.file) }
    return files.first { identity($0) == written }
  }

  /// `--states`: the sheet of every state, a section per locale or storefront.
  private func drawStates(_ loaded: Project, size: Size, overrides: [SlotOverride]) async throws {
    // Checked as a single render checks them: the paywall, the overrides, --select.
    let screen = try Self.screen(for: loaded, paywall: paywall, select: select, overrides: overrides)
    let id = screen.paywall.definition.id
    let slots = screen.paywall.slots.map(\.slot)
    var variants: [(storefront: String?, locale: String?)] = []
    for storefront in storefronts.isEmpty ? [nil] : storefronts.map(Optional.some) {
      for locale in locales.isEmpty ? [nil] : locales.map(Optional.some) { variants.append((storefront, locale)) }
    }
    var sections: [StateGallery.Section] = []
    for variant in variants {
      var project = loaded
      project.catalog = loaded.catalog.localized(storefront: variant.storefront, locale: variant.locale)
      let settings = project.catalog.settings
      let heading = [settings.locale.map { "locale \($0)" }, settings.storefront.map { "storefront \($0)" }]
        .compactMap { $0 }.joined(separator: ", ")
      var shots: [StateGallery.Shot] = []
      for state in StateGallery.states(project: project, slots: slots, size: size) {
        let frame = try await StateGallery.shoot(state, project: project, path: path, paywall: id, overrides: overrides)
        shots.append(StateGallery.Shot(label: state.label, frame: frame))
      }
      sections.append(StateGallery.Section(heading: "\(id)" + (heading.isEmpty ? "" : " (\(heading))"), shots: shots))
    }
    let title = "paywall-tui: \(id) in every state"
    let format = self.format ?? out.flatMap(PictureFormat.init(extensionOf:)).flatMap { $0 == .text ? nil : $0 } ?? .svg
    try write(format == .html ? StateGallery.html(sections, title: title) : StateGallery.svg(sections, title: title))
  }

  /// To --out (a temporary file renamed over it: whole or not at all), else standard output.
  private func write(_ document: String) throws {
    guard let out else { return try Console.out(document.hasSuffix("\n") ? String(document.dropLast()) : document) }
    do {
      try AtomicFile.write(document, to: out, replacingOnlyRegularFile: true)
    } catch {
      throw CLIFailure.invalid("error: --out: \(error)")
    }
  }

  /// The screen state for one paywall of `project`, with overrides and a selection applied.
  package static func screen(for project: Project, paywall id: String?, select: String?, overrides: [SlotOverride],
                     now: Date = Date()) throws -> PaywallScreenState {
    guard !project.paywalls.isEmpty else {
      throw CLIFailure.usage("\(project.catalog.file) is a catalog; give a paywall file or a project directory")
    }
    let ids = project.paywalls.map(\.id)
    guard let definition = id.map({ project.paywall(id: $0) }) ?? project.paywalls.first else {
      throw CLIFailure.usage("no paywall \(quoting: id!)\(Suggestions.hint(for: id!, in: ids)) (paywalls: \(ids.joined(separator: ", ")))")
    }
    // A picture of what was not asked for misleads: a bad override is an error here (the SDK, and
    // `run`/`play`, ignore it with a warning).
    let errors = definition.overrideErrors(overrides, catalog: project.catalog)
    for error in errors { try Console.error("error: \(error)") }
    guard errors.isEmpty else { throw CLIFailure.invalid() }
    let (overridden, _) = definition.applying(overrides, catalog: project.catalog)
    if let select, !overridden.slotNames.contains(select) {
      throw CLIFailure.usage("--select \(quoting: select): paywall \(quoting: definition.id) has no such slot\(Suggestions.hint(for: select, in: overridden.slotNames)) (slots: \(overridden.slotNames.joined(separator: ", ")))")
    }
    let resolved = ResolvedPaywall(overridden, catalog: project.catalog, now: now)
    return PaywallScreenState(paywall: resolved, selectedSlot: select)
  }
}

/// `render`'s own options (it takes `ProjectFlags` too).
package enum RenderFlags {
  package static let paywall = Flag.text("paywall", "id", "Which paywall of a project to draw.")
  /// Read as written: `run()` checks it.
  package static let size = Flag.text("size", "size", "Screen size, WIDTHxHEIGHT (default 80x24).", default: "80x24")
  package static let select = Flag.text("select", "slot", "Slot to show as selected.")
  package static let color = Flag.choice("color", "when", "ANSI colours: auto (when stdout is a terminal and NO_COLOR is unset), always or never.",
                                         default: ColorChoice.auto)
  package static let watch = Flag.bool("watch", "Draw again on every save of the project's files (a terminal is cleared first; otherwise a separator line), errors on stderr, until Ctrl-C.")
  /// nil when not given: text, unless --states makes it svg.
  package static let format: Flag<PictureFormat?, CLIFailure> = Flag.choice("format", "format", "text (default; the terminal's characters), svg or html (a standalone picture).")
  package static let out = Flag.text("out", "file", "Write to this file (whole or not at all) instead of standard output.")
  package static let states = Flag.bool("states", "Draw every state a tester checks on one sheet (--format svg by default, or html).")
  package static let locale = Flag.list("locale", "locale", "Format prices for this locale, e.g. de_DE (repeatable or a comma list with --states: one section each).",
                                        completion: .words(Catalog.formatLocales))
  package static let storefront = Flag.list("storefront", "code", "Sell in this App Store storefront (its currency), e.g. DEU (repeatable or a comma list with --states).",
                                            completion: .words(Catalog.storefrontCodes))

  /// In the order help lists them.
  package static let platform: Flag<SDKPlatform?, CLIFailure> = Flag.choice("platform", "os",
    "The store a cross-platform project is drawn for (its catalog and each slot's product): ios or android (default: the project's platform).")
  package static let own: [OptionInfo] = [
    paywall.option, size.option, select.option, color.option, watch.option, format.option, out.option, states.option,
    locale.option, storefront.option, platform.option,
  ]
}
