import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import PaywallModel
@testable import TerminalCore
@testable import PaywallUI
@testable import PaywallCLI
import PaywallScenarios
import PaywallTesting
import Testing

/// An XML document read with Foundation's XMLParser: every element with its attributes and text.
final class XMLElements: NSObject, XMLParserDelegate {
  struct Element {
    var name: String
    var attributes: [String: String]
    var text = ""
  }

  private(set) var elements: [Element] = []
  private var open: [Int] = []
  private(set) var error: Error?

  init(_ text: String) {
    super.init()
    let parser = XMLParser(data: Data(text.utf8))
    parser.delegate = self
    if !parser.parse() { error = parser.parserError ?? CocoaError(.fileReadCorruptFile) }
  }

  func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
              attributes: [String: String] = [:]) {
    elements.append(Element(name: name, attributes: attributes))
    open.append(elements.count - 1)
  }

  func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
    open.removeLast()
  }

  func parser(_ parser: XMLParser, foundCharacters string: String) {
    if let last = open.last { elements[last].text += string }
  }

  func named(_ name: String) -> [Element] { elements.filter { $0.name == name } }
}

@Suite("Pictures (SVG and HTML)")
struct PictureTests {
  static let cell = FramePicture.cellWidth

  static func texts(_ frame: Frame) throws -> [XMLElements.Element] {
    let document = XMLElements(FramePicture.svg(frame))
    #expect(document.error == nil, "the SVG does not parse: \(String(describing: document.error))")
    return document.named("text")
  }

  @Test func markupInTextIsEscapedAndReadsBack() throws {
    var frame = Frame(width: 30, height: 1)
    frame.put("<a href=\"x\">&'it's'</a>", x: 0, y: 0, style: .plain)
    let svg = FramePicture.svg(frame, title: "a <title> & \"more\"")
    #expect(!svg.contains("<a href"))
    let document = XMLElements(svg)
    #expect(document.error == nil)
    #expect(document.named("text").map(\.text).joined(separator: " ") == "<a href=\"x\">&'it's'</a>")
    #expect(document.named("title").first?.text == "a <title> & \"more\"")
    // What XML cannot hold at all never reaches the file.
    #expect(FramePicture.escape("a\u{1}b\u{FFFF}") == "a\u{FFFD}b\u{FFFD}")
  }

  @Test func wideCharactersTakeTwoCellsAndTheGridHolds() throws {
    var frame = Frame(width: 12, height: 1)
    frame.put("a界b😀c", x: 0, y: 0, style: .plain)
    let texts = try Self.texts(frame)
    let byText = Dictionary(texts.map { ($0.text, $0.attributes) }, uniquingKeysWith: { a, _ in a })
    #expect(byText["界"]?["x"] == "\(1 * Self.cell)" && byText["界"]?["textLength"] == "\(2 * Self.cell)")
    #expect(byText["😀"]?["x"] == "\(4 * Self.cell)" && byText["😀"]?["textLength"] == "\(2 * Self.cell)")
    // Narrow runs after a wide character start where the terminal puts them.
    #expect(byText["b"]?["x"] == "\(3 * Self.cell)")
    #expect(byText["c"]?["x"] == "\(6 * Self.cell)")
    // Every narrow run is exactly its cells wide.
    for text in texts where text.text.count == 1 && DisplayWidth.of(text.text) == 1 {
      #expect(text.attributes["textLength"] == "\(Self.cell)")
    }
  }

  @Test func singleSpacesStayInARunLongerGapsSplitIt() throws {
    var frame = Frame(width: 20, height: 1)
    frame.put("Go Premium   now", x: 1, y: 0, style: .plain)
    let texts = try Self.texts(frame)
    #expect(texts.map(\.text) == ["Go Premium", "now"])
    #expect(texts.map { $0.attributes["x"] } == ["\(Self.cell)", "\(14 * Self.cell)"])
    #expect(texts.first?.attributes["textLength"] == "\(10 * Self.cell)")
  }

  @Test(arguments: CellStyle.allCases)
  func everyStyleIsThePalettes(style: CellStyle) throws {
    var frame = Frame(width: 3, height: 1)
    frame.put("X", x: 1, y: 0, style: style)
    let document = XMLElements(FramePicture.svg(frame))
    let text = try #require(document.named("text").first)
    let look = Palette.look(style)
    let (color, background) = Palette.pictureColors(look)
    #expect(text.attributes["fill"] == Palette.hex(color))
    #expect((text.attributes["font-weight"] == "bold") == look.bold)
    // The whole-picture background, then the cell's own when the style has one.
    let rects = document.named("rect").dropFirst().filter { $0.attributes["height"] == "\(FramePicture.cellHeight)" }
    #expect(rects.map { $0.attributes["fill"] } == (background.map { [Palette.hex($0)] } ?? []))
  }

  @Test func theColoursAreTheTerminals() {
    // The pictures and the terminal read one table: spot-check it against what the terminal showed
    // before the table existed (cyan accent, black on yellow badge, green selection).
    #expect(Palette.look(.accent).foreground == .cyan)
    #expect(Palette.look(.badge) == Palette.Look(foreground: .black, background: .yellow, bold: true))
    #expect(Palette.look(.selected) == Palette.Look(foreground: .green, bold: true))
    #expect(Palette.look(.statusBar) == Palette.Look(foreground: .black, background: .white))
    #expect(FrameText.sgr(.badge) == ";1;30;43" && FrameText.sgr(.selected) == ";1;32" && FrameText.sgr(.accent) == ";36")
    #expect(Palette.hex(Palette.pictureColors(Palette.look(.selected)).text) == "#0dbc79")
    #expect(Palette.hex(Palette.pictureColors(Palette.look(.focusedButton)).text) == Palette.hex(Palette.pictureBackground))
  }

  @Test func boxDrawingIsLinesThatJoin() throws {
    var frame = Frame(width: 4, height: 3)
    frame.put("┌──┐", x: 0, y: 0, style: .border)
    frame.put("│", x: 0, y: 1, style: .border)
    frame.put("│", x: 3, y: 1, style: .border)
    frame.put("╰──╯", x: 0, y: 2, style: .border)
    let document = XMLElements(FramePicture.svg(frame))
    #expect(document.error == nil)
    #expect(document.named("text").isEmpty, "box drawing is drawn, not typeset")
    let paths = document.named("path")
    #expect(paths.count == 3)
    let dim = Palette.hex(Palette.pictureColors(Palette.look(.border)).text)
    #expect(paths.allSatisfy { $0.attributes["stroke"] == dim })
    // The top row's horizontal lines reach both edges of their cells: the line is continuous.
    let top = try #require(paths.first?.attributes["d"])
    #expect(top.contains("M9 9.5H18") && top.contains("M18 9.5H27"), "\(top)")
  }

  @Test func htmlIsAStandalonePageThatParses() throws {
    let project = try Fixtures.demoProject()
    let frame = PaywallRenderer.render(try Fixtures.screen(project, paywall: "onboarding"), size: Size(width: 80, height: 24))
    let html = FramePicture.html(frame, title: "onboarding")
    let document = XMLElements(html.replacingOccurrences(of: "<!DOCTYPE html>\n", with: ""))
    #expect(document.error == nil, "\(String(describing: document.error))")
    #expect(document.named("svg").count == 1)
    #expect(!html.contains("http://") || !html.replacingOccurrences(of: "http://www.w3.org/2000/svg", with: "").contains("http"),
            "nothing outside the file is referenced")
    #expect(document.named("text").contains { $0.text == "Unlock Acme Pro" })
  }

  @Test func theSheetLabelsEachPictureInSVGAndHTML() throws {
    var small = Frame(width: 40, height: 12)
    small.put("small & <wide>", x: 0, y: 0, style: .title)
    var large = Frame(width: 120, height: 40)
    large.put("large", x: 0, y: 0, style: .plain)
    let sections = [StateGallery.Section(heading: "plans (locale de_DE)", shots: [StateGallery.Shot(label: "40x12", frame: small),
                                                                            StateGallery.Shot(label: "a <b> & c", frame: large)])]
    let svg = XMLElements(StateGallery.svg(sections, title: "sheet"))
    #expect(svg.error == nil)
    let texts = svg.named("text").map(\.text)
    #expect(texts.contains("plans (locale de_DE)") && texts.contains("40x12") && texts.contains("a <b> & c") && texts.contains("small & <wide>"))
    // Each picture is a nested <svg> at its own place, at its own size.
    let nested = svg.named("svg").dropFirst()
    #expect(nested.map { $0.attributes["width"] } == ["\(40 * Self.cell)", "\(120 * Self.cell)"])
    let html = StateGallery.html(sections, title: "sheet")
    let page = XMLElements(html.replacingOccurrences(of: "<!DOCTYPE html>\n", with: ""))
    #expect(page.error == nil)
    #expect(page.named("figcaption").map(\.text) == ["40x12", "a <b> & c"])
    #expect(page.named("h2").map(\.text) == ["plans (locale de_DE)"])
  }

  @Test func stepFileNames() {
    #expect(Screenshots.stepFileName(number: 3, step: "press enter") == "003-press-enter.svg")
    #expect(Screenshots.stepFileName(number: 0, step: "start") == "000-start.svg")
    #expect(Screenshots.stepFileName(number: 12, step: "expect screen \"Go Premium!\"") == "012-expect-screen-go-premium.svg")
    #expect(Screenshots.stepFileName(number: 1000, step: "…") == "1000-step.svg")
  }

  @Test func aStorefrontSetsCurrencyAndALocaleTheFormat() throws {
    let catalog = try Fixtures.demoProject().catalog
    let german = catalog.localized(storefront: "DEU", locale: nil)
    #expect(german.products.allSatisfy { $0.currencyCode == "EUR" && $0.locale == "de_DE" })
    #expect(german.settings.storefront == "DEU")
    let french = catalog.localized(storefront: nil, locale: "fr_FR")
    #expect(french.products.allSatisfy { $0.currencyCode == "USD" && $0.locale == "fr_FR" })
    #expect(Catalog.refusal(storefront: "DEX", locale: nil)?.contains("did you mean 'DEU'") == true)
    #expect(Catalog.refusal(storefront: nil, locale: "xx_YY") != nil)
    #expect(Catalog.refusal(storefront: "jpn", locale: "ja_JP") == nil)
  }
}
