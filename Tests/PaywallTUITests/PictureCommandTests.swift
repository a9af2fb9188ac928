import Foundation
import PaywallModel
@testable import TerminalCore
import PaywallTesting
import Testing

/// `render --format svg|html`, `render --states`, the `screenshot` script command and
/// `play --screenshot-every`, through the real binary; and the SVG in a real browser.
@Suite("Picture commands")
struct PictureCommandTests {
  static func temporaryDirectory() throws -> URL {
    let url = Scratch.root.appendingPathComponent("paywall-tui-pictures-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  @Test func renderWritesAnSVGToStdoutOrAFile() throws {
    let stdout = try PaywallBinary.run(["render", "paywalls", "--format", "svg"])
    #expect(stdout.status == 0, "\(stdout.stderr)")
    let document = XMLElements(stdout.stdout)
    #expect(document.error == nil)
    #expect(document.named("svg").first?.attributes["width"] == "\(80 * FramePicture.cellWidth)")
    #expect(document.named("text").contains { $0.text == "Unlock Acme Pro" })

    let dir = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    // The extension decides when --format is not given; nothing is left beside the file.
    let out = dir.appendingPathComponent("plans.html").path
    let file = try PaywallBinary.run(["render", "paywalls", "--paywall", "plans", "--size", "40x12", "--out", out])
    #expect(file.status == 0 && file.stdout.isEmpty, "\(file.stderr)")
    let html = try String(contentsOfFile: out, encoding: .utf8)
    #expect(html.hasPrefix("<!DOCTYPE html>") && html.contains("width=\"\(40 * FramePicture.cellWidth)\""))
    #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["plans.html"])

    let bad = try PaywallBinary.run(["render", "paywalls", "--format", "png"])
    #expect(bad.status == 2 && bad.stderr.contains("--format 'png' must be one of text, svg, html"), "\(bad.stderr)")
    let unknown = try PaywallBinary.run(["render", "paywalls", "--storefront", "XYZ"])
    #expect(unknown.status == 2 && unknown.stderr.contains("--storefront 'XYZ'"), "\(unknown.stderr)")
    // Every locale at once was a 100 MB sheet after half a minute: refused at once instead.
    let huge = try PaywallBinary.run(["render", "paywalls", "--states", "--locale", Catalog.formatLocales.prefix(13).joined(separator: ",")])
    #expect(huge.status == 2 && huge.stderr.contains("draws 13 sections; at most 12"), "\(huge.stderr)")
  }

  @Test func theStatesSheetHoldsEveryStateInEveryLocale() throws {
    let result = try PaywallBinary.run(["render", "paywalls", "--states", "--storefront", "USA,DEU"])
    #expect(result.status == 0, "\(result.stderr)")
    let document = XMLElements(result.stdout)
    #expect(document.error == nil)
    let labels = Set(document.named("text").map(\.text))
    for label in ["primary selected", "secondary selected", "tertiary selected", "trial not eligible (subscribed before)",
                  "subscribed", "purchase pending (Ask to Buy)", "purchase failed", "restore: nothing to restore", "40x12", "120x40",
                  "onboarding (locale en_US, storefront USA)", "onboarding (locale de_DE, storefront DEU)"] {
      #expect(labels.contains(label), "no \(label) on the sheet")
    }
    // Each state is the screen the app reached: the alerts' titles, the status bar, the prices
    // as the storefront's locale writes them (CurrencyFormats: de_DE, EUR).
    let german = PriceFormatter.shared.format(Decimal(string: "59.99")!, currencyCode: "EUR", locale: "de_DE")
    #expect(german == "59,99\u{A0}€")
    let all = document.named("text").map(\.text).joined(separator: "\n")
    #expect(all.contains(german) && all.contains("$59.99"))
    for text in ["Waiting for Approval", "An error occurred", "No Subscription Found", "status: active:pro"] {
      #expect(all.contains(text), "no \(text) on the sheet")
    }
    // 10 pictures a section (3 slots, 5 states, 2 more sizes), each a nested <svg>.
    #expect(document.named("svg").count == 1 + 2 * 10)
  }

  @Test func screenshotStepsAndEveryStepWriteThePicturesDeterministically() throws {
    let dir = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let script = dir.appendingPathComponent("flow.play")
    try "press 2\nscreenshot shots/after-down.svg\nfail purchase networkError\npress enter\nscreenshot failed.txt\n"
      .write(to: script, atomically: true, encoding: .utf8)
    func run(_ every: String) throws -> PaywallBinary.Output {
      try PaywallBinary.run(["play", "paywalls", "--script", script.path, "--screenshot-every", dir.appendingPathComponent(every).path])
    }
    let first = try run("every")
    #expect(first.status == 0, "\(first.stderr)")
    // Relative to the script's directory, not to where play ran (the repository).
    let svg = try String(contentsOfFile: dir.appendingPathComponent("shots/after-down.svg").path, encoding: .utf8)
    #expect(XMLElements(svg).error == nil)
    let text = try String(contentsOfFile: dir.appendingPathComponent("failed.txt").path, encoding: .utf8)
    #expect(text.contains("Cannot connect to the App Store"))
    let names = try FileManager.default.contentsOfDirectory(atPath: dir.appendingPathComponent("every").path).sorted()
    #expect(names == ["000-start.svg", "001-press-2.svg", "002-screenshot-shots-after-down-svg.svg", "003-fail-purchase-networkerror.svg",
                      "004-press-enter.svg", "005-screenshot-failed-txt.svg"])
    let failed = try String(contentsOfFile: dir.appendingPathComponent("every/004-press-enter.svg").path, encoding: .utf8)
    #expect(XMLElements(failed).named("text").contains { $0.text.contains("An error occurred") })
    // The same script gives the same bytes.
    #expect(try run("again").status == 0)
    for name in names {
      let a = try Data(contentsOf: dir.appendingPathComponent("every/\(name)"))
      let b = try Data(contentsOf: dir.appendingPathComponent("again/\(name)"))
      #expect(a == b, "\(name) differs between two runs")
    }
    // A file where the directory should be: one line naming it, exit 1, nothing run.
    let blocked = try PaywallBinary.run(["play", "paywalls", "--keys", "enter", "--screenshot-every", script.path])
    #expect(blocked.status == 1 && blocked.stdout.isEmpty
              && blocked.stderr.hasPrefix("error: --screenshot-every ")
              && blocked.stderr.hasSuffix(": it exists and is not a directory; give a directory for the pictures\n")
              && blocked.stderr.split(separator: "\n").count == 1,
            "\(blocked.stderr)")
    // A picture format the command does not write is a usage error at its place in the script.
    let badScript = dir.appendingPathComponent("bad.play")
    try "press down\nscreenshot shot.png\n".write(to: badScript, atomically: true, encoding: .utf8)
    let bad = try PaywallBinary.run(["play", "paywalls", "--script", badScript.path])
    #expect(bad.status == 2 && bad.stderr.contains("bad.play:2:12: error: 'shot.png': a screenshot is written as .svg, .html or .txt"), "\(bad.stderr)")
  }

  /// Reads pixels of a PNG: Python's zlib and the PNG filters, no imaging library needed.
  static let pixelReader = #"""
    import json, struct, sys, zlib
    data = open(sys.argv[1], 'rb').read()
    assert data[:8] == b'\x89PNG\r\n\x1a\n'
    pos, idat, width, height = 8, b'', 0, 0
    while pos < len(data):
        length, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b'IHDR':
            width, height, depth, color = struct.unpack('>IIBB', body[:10])
            assert depth == 8 and color in (2, 6), (depth, color)
            bpp = 3 if color == 2 else 4
        elif kind == b'IDAT':
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev, i = [], bytearray(stride), 0
    for y in range(height):
        f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1: line[x] = (line[x] + a) & 255
            elif f == 2: line[x] = (line[x] + b) & 255
            elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    out = {}
    for box in sys.argv[2:]:
        x0, y0, x1, y1 = map(int, box.split(','))
        out[box] = sorted({'#%02x%02x%02x' % tuple(rows[y][x * bpp:x * bpp + 3]) for y in range(y0, y1) for x in range(x0, x1)})
    print(json.dumps({'size': [width, height], 'boxes': out}))
    """#

  /// The demo paywall's SVG as headless Chromium draws it: the background, the title's colour, the
  /// selected product's green, the cards' dim border line and the status bar are where the grid
  /// puts them, in the palette's colours.
  @Test(.requires(.chromium)) func chromiumDrawsThePaletteOnTheGrid() throws {
    let chromium = Tool.chromium.path
    let dir = try Self.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: dir) }
    let svg = dir.appendingPathComponent("demo.svg").path, png = dir.appendingPathComponent("demo.png").path
    let render = try PaywallBinary.run(["render", "paywalls", "--format", "svg", "--out", svg])
    #expect(render.status == 0, "\(render.stderr)")
    let text = try PaywallBinary.run(["render", "paywalls", "--color", "never"]).stdout.components(separatedBy: "\n")
    let (cw, ch) = (FramePicture.cellWidth, FramePicture.cellHeight)
    // Bounded: a browser that hangs fails the test after a minute instead of holding CI.
    let shot = try PaywallBinary.spawn(URL(fileURLWithPath: "/usr/bin/timeout"),
                                          ["60", chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--force-device-scale-factor=1",
                                           "--user-data-dir=\(dir.appendingPathComponent("profile").path)",
                                           "--screenshot=\(png)", "--window-size=\(80 * cw),\(24 * ch)", "file://\(svg)"])
    #expect(FileManager.default.fileExists(atPath: png), "chromium wrote no screenshot: \(shot.stderr)")
    // Where things are, from the text render of the same frame.
    func cell(_ needle: String) -> (x: Int, y: Int)? {
      guard let row = text.firstIndex(where: { $0.contains(needle) }), let range = text[row].range(of: needle) else { return nil }
      return (text[row].distance(from: text[row].startIndex, to: range.lowerBound), row)
    }
    let title = try #require(cell("Unlock Acme Pro"), "no title in the text render")
    let annual = try #require(cell("Annual"), "no Annual in the text render")
    let border = try #require(cell("│ ● Annual"), "no selected Annual in the text render")
    func box(_ x: Int, _ y: Int, cells: Int = 1) -> String { "\(x * cw),\(y * ch),\((x + cells) * cw),\((y + 1) * ch)" }
    let boxes = ["0,0,4,4", box(title.x, title.y, cells: 15), box(annual.x, annual.y, cells: 6),
                 "\(border.x * cw + cw / 2),\(border.y * ch),\(border.x * cw + cw / 2 + 1),\((border.y + 1) * ch)", box(0, 23)]
    let python = try PaywallBinary.spawn(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", Self.pixelReader, png] + boxes)
    #expect(python.status == 0, "\(python.stderr)")
    struct Pixels: Decodable { var size: [Int]; var boxes: [String: [String]] }
    let pixels = try JSONDecoder().decode(Pixels.self, from: Data(python.stdout.utf8))
    #expect(pixels.size == [80 * cw, 24 * ch])
    func hex(_ style: CellStyle) -> String { Palette.hex(Palette.pictureColors(Palette.look(style)).text) }
    #expect(pixels.boxes[boxes[0]] == [Palette.hex(Palette.pictureBackground)])
    #expect(pixels.boxes[boxes[1]]?.contains(hex(.title)) == true, "title: \(pixels.boxes[boxes[1]] ?? [])")
    #expect(pixels.boxes[boxes[2]]?.contains(hex(.selected)) == true, "selected: \(pixels.boxes[boxes[2]] ?? [])")
    #expect(pixels.boxes[boxes[3]] == [hex(.border)], "the border line is one unbroken dim line: \(pixels.boxes[boxes[3]] ?? [])")
    let statusBar = Palette.hex(Palette.pictureColors(Palette.look(.statusBar)).background!)
    #expect(pixels.boxes[boxes[4]]?.contains(statusBar) == true, "status bar: \(pixels.boxes[boxes[4]] ?? [])")
  }
}
