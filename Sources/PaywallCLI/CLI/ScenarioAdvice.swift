#if canImport(FoundationEssentials) && !PAYWALL_FULL_FOUNDATION
import FoundationEssentials
#else
import Foundation
#endif
import PaywallModel
import PaywallScenarios

/// What `validate FILE.play` says of a scenario: its `# args:` line and its steps read, its
/// project loaded as `play` would load it, and the steps checked against what the SDK would do
/// with them. Nothing runs. Errors are what `play` would refuse; warnings, a step that runs but
/// cannot do what it seems to test.
package enum ScenarioAdvice {
  /// The diagnostics of `path`, and the project's paywall and product counts once it loaded.
  package static func check(_ path: String) -> ValidateCommand.Checked {
    var checked = ValidateCommand.Checked(path: path, diagnostics: [])
    func fail(_ message: String, line: Int = 1) -> ValidateCommand.Checked {
      checked.diagnostics.append(Diagnostic(file: path, location: SourceLocation(line: line, column: 1), severity: .error,
                                            message: message, path: nil))
      return checked
    }
    let scenario = Scenario(path: path, root: ".", relativePath: path)
    let words: [String]
    switch scenario.arguments(allowingCommands: true, commandLine: PlayCommand.commandLine) {
    case .success(let found): words = found.words
    case .failure(let problem): return fail(problem.message)
    }
    let arguments: Arguments
    do {
      arguments = try Arguments(words, spec: PlayCommand.spec)
    } catch {
      let reason = error.message.hasPrefix("error: ") ? String(error.message.dropFirst(7)) : error.message
      return fail("the '# args:' line is not play's arguments: \(reason)")
    }
    guard let projectPath = arguments.positionals.first else {
      return fail("the '# args:' line names no project; write '# args: PATH [OPTIONS]'")
    }
    guard let data = FileManager.default.contents(atPath: path) else { return fail("cannot read the scenario") }
    let script: PlayScript
    do {
      script = try PlayScript.parse(String(decoding: data, as: UTF8.self), file: path)
    } catch {
      checked.diagnostics += error.diagnostics
      return checked
    }
    // A bad --sdk or --platform is play's to report when the scenario runs; here it changes nothing.
    let choice = SDKChoice(platform: (try? arguments[SessionFlags.platform]) ?? nil, given: (try? arguments[SessionFlags.sdk]) ?? nil)
    let loaded = ProjectLoader.load(path: projectPath, catalogPath: arguments[ProjectFlags.catalog], sdk: choice)
    guard let project = loaded.project else {
      checked.diagnostics += loaded.diagnostics
      return checked
    }
    let sdk = choice.followed(by: project.options.sdk)
    checked.diagnostics += customProductCalls(script, catalog: project.catalog, sdk: sdk)
    checked.paywalls = project.paywalls.count
    checked.products = Set(project.paywalls.flatMap { $0.slots.map(\.productID) }).count
    return checked
  }

  /// `call purchase` of a custom store product: `Superwall.shared.purchase(_:)` never hands one
  /// to the purchase controller (`StoreKit/Transactions/TransactionManager.swift`): without a
  /// controller it fails "Unable to purchase this product.", with one StoreKit 2's purchaser
  /// returns `cancelled` and StoreKit 1's fails `noSk1Product`. A scenario that calls it tests
  /// no purchase.
  static func customProductCalls(_ script: PlayScript, catalog: Catalog, sdk: SDKVersion) -> [Diagnostic] {
    guard sdk.hasCustomProducts else { return [] }
    var out: [Diagnostic] = []
    for step in script.steps {
      guard case .call(.purchase(let id)) = step.command, let product = catalog.product(id: id), product.store == .custom else { continue }
      let column = (step.text.range(of: id).map { step.text.distance(from: step.text.startIndex, to: $0.lowerBound) } ?? 0) + 1
      out.append(Diagnostic(file: script.file, location: SourceLocation(line: step.line, column: column), severity: .warning,
                            message: "\(quoting: step.text): \(quoting: id) is a custom store product, which Superwall.shared.purchase(_:) never hands to the purchase controller (with one: cancelled on StoreKit 2, noSk1Product on StoreKit 1; without: \"Unable to purchase this product.\"); buy it from a paywall's purchase button",
                            path: nil, kind: .customProductCall))
    }
    return out
  }
}
