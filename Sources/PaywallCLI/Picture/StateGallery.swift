#if canImport(FoundationEssentials) && !PAYWALL_FULL_FOUNDATION
import FoundationEssentials
#else
import Foundation
#endif
import PaywallModel
import PaywallScenarios
import TerminalCore
import PaywallUI

/// `render --states`: one paywall in every state a tester must check, side by side on one sheet
/// (Storybook for paywalls), for each locale or storefront asked for.
///
/// Each state is a short play script run on a fresh session through the real app model and
/// presenter (`AppSession` + `Player`, as `play` runs one), then drawn by `AppView`: a state on
/// the sheet is a screen the app really reaches, not a frame put together for the picture.
package enum StateGallery {
  /// One state: the session's options (as `play` takes them), the steps that reach it, the size.
  package struct State: Sendable {
    package var label: String
    package var arguments: [String] = []
    package var script: String = ""
    package var size: Size
  }

  /// A state drawn.
  package struct Shot: Sendable {
    package var label: String
    package var frame: Frame
  }

  /// The shots of one locale or storefront.
  package struct Section: Sendable {
    package var heading: String
    package var shots: [Shot]
  }

  /// The sizes every sheet shows the paywall at, besides the states at `--size`.
  package static let sizes = [Size(width: 40, height: 12), Size(width: 80, height: 24), Size(width: 120, height: 40)]

  /// The states of `paywall` (its slots after overrides) in `project`, at `size`.
  package static func states(project: Project, slots: [String], size: Size) -> [State] {
    var states: [State] = []
    for (i, slot) in slots.prefix(9).enumerated() {
      states.append(State(label: "\(slot) selected", script: "press \(i + 1)", size: size))
    }
    // Entitlements an auto-renewable subscription grants: `--start` gives a store state to those.
    let renewable = project.catalog.products.filter { $0.kind == .autoRenewable }.flatMap(\.entitlements)
    let entitlements = Set(renewable.map(\.id)).sorted()
    if !entitlements.isEmpty {
      // A subscription that ended: the group's introductory offers are used up.
      states.append(State(label: "trial not eligible (subscribed before)", arguments: entitlements.flatMap { ["--start", "\($0)=expired"] }, size: size))
      states.append(State(label: "subscribed", arguments: entitlements.flatMap { ["--start", "\($0)=subscribed"] }, size: size))
    }
    states.append(State(label: "purchase pending (Ask to Buy)", arguments: ["--ask-to-buy"], script: "press enter", size: size))
    states.append(State(label: "purchase failed", script: "fail purchase networkError\npress enter", size: size))
    states.append(State(label: "restore: nothing to restore", script: "press r", size: size))
    for other in sizes where other != size {
      states.append(State(label: "\(other)", size: other))
    }
    return states
  }

  /// Runs `state` on a fresh session in memory and draws where it ends.
  package static func shoot(_ state: State, project: Project, path: String, paywall: String, overrides: [SlotOverride]) async throws -> Frame {
    let arguments = try Arguments([path, "--paywall", paywall, "--controller", "simulated"] + state.arguments, spec: PlayCommand.spec)
    let options = try SessionConfiguration(arguments)
    let script: PlayScript
    do {
      script = try PlayScript.parse(state.script, file: "render --states (\(state.label))")
    } catch {
      throw CLIFailure.invalid("error: \(error.description)")
    }
    let clock = SimulatedTimeSource()
    let app = try AppSession.make(project: project, path: path, options: options, overrides: overrides, clock: clock,
                                  simulatedClock: clock, animates: false, state: .commandLineOrMemory) { _ in }
    defer { app.command?.stop() }
    defer { app.runtime.flushState() }
    let player = Player(app: app, clock: clock, events: EventRecorder(), size: state.size)
    let outcome = await player.play(script, placement: nil)
    if case .failed(let failure) = outcome {
      throw CLIFailure.invalid("error: render --states: the state \(quoting: state.label) was not reached: \(failure.message)")
    }
    return AppView.render(app.runtime.state, size: state.size)
  }

  // MARK: - The sheet

  /// Space around and between the pictures, and the label's line above each.
  package static let margin = 16
  package static let labelHeight = 22
  package static let headingHeight = 34
  /// Pictures wrap onto a new line past this width (the widest picture always fits).
  package static let lineWidth = 1600

  /// One standalone SVG: each section's heading, then its labelled pictures, wrapping.
  package static func svg(_ sections: [Section], title: String) -> String {
    let background = Palette.hex(Palette.pictureBackground), foreground = Palette.hex(Palette.pictureForeground)
    let widest = sections.flatMap(\.shots).map { FramePicture.pixelSize($0.frame.size).width }.max() ?? 0
    let limit = max(lineWidth, widest + 2 * margin)
    var body = ""
    var y = margin
    var sheetWidth = 0
    for section in sections {
      body += "<text x=\"\(margin)\" y=\"\(y + 22)\" font-size=\"20\" font-weight=\"bold\" fill=\"\(foreground)\">\(FramePicture.escape(section.heading))</text>\n"
      y += headingHeight
      var x = margin
      var lineHeight = 0
      for shot in section.shots {
        let (width, height) = FramePicture.pixelSize(shot.frame.size)
        if x > margin && x + width + margin > limit {
          x = margin
          y += lineHeight + margin
          lineHeight = 0
        }
        body += "<text x=\"\(x)\" y=\"\(y + 15)\" font-size=\"14\" fill=\"\(foreground)\">\(FramePicture.escape(shot.label))</text>\n"
        body += FramePicture.svgElement(shot.frame, title: "\(section.heading): \(shot.label)", standalone: false, x: x, y: y + labelHeight) + "\n"
        // A thin frame around each screen, so a dark one stands out from the sheet.
        body += "<rect x=\"\(x)\" y=\"\(y + labelHeight)\" width=\"\(width)\" height=\"\(height)\" fill=\"none\" stroke=\"#555555\" stroke-width=\"1\"/>\n"
        x += width + margin
        sheetWidth = max(sheetWidth, x)
        lineHeight = max(lineHeight, height + labelHeight)
      }
      y += lineHeight + margin
    }
    let height = y
    return """
      <?xml version="1.0" encoding="UTF-8"?>
      <svg xmlns="http://www.w3.org/2000/svg" width="\(sheetWidth)" height="\(height)" viewBox="0 0 \(sheetWidth) \(height)"\(FramePicture.rootAttributes)><title>\(FramePicture.escape(title))</title>
      <rect width="\(sheetWidth)" height="\(height)" fill="\(background)"/>
      \(body)</svg>

      """
  }

  /// One standalone HTML page: a heading per section, a captioned picture per state.
  package static func html(_ sections: [Section], title: String) -> String {
    var body = "<h1>\(FramePicture.escape(title))</h1>\n"
    for section in sections {
      body += "<section><h2>\(FramePicture.escape(section.heading))</h2>\n"
      for shot in section.shots {
        body += "<figure><figcaption>\(FramePicture.escape(shot.label))</figcaption>"
        body += FramePicture.svgElement(shot.frame, title: "\(section.heading): \(shot.label)", standalone: true) + "</figure>\n"
      }
      body += "</section>\n"
    }
    return FramePicture.page(title: title, body: body)
  }
}
