import Foundation
@testable import PaywallModel
@testable import TerminalCore
@testable import PaywallUI

/// The property every drawn frame must have: no control character (C0, DEL, C1, bidi overrides
/// and isolates) in any cell, every cell as wide as its grapheme measures (a wide one followed by
/// its continuation), and every row exactly the frame's width in display columns.
func checkFrame(_ frame: Frame, what: @autoclosure () -> String) {
  func fail(_ y: Int, _ message: String) -> String {
    "\(what()) row \(y) \(frame.lines[y].debugDescription): \(message)"
  }
  for y in 0..<frame.height {
    var columns = 0
    var x = 0
    while x < frame.width {
      let cell = frame[x, y]
      // Printable ASCII in one cell (most of them) needs no more checking.
      if cell.cluster == 0 && cell.scalar.value >= 0x20 && cell.scalar.value < 0x7F {
        require(cell.width == 1, fail(y, "an ASCII cell at \(x) of width \(cell.width)"))
        columns += 1
        x += 1
        continue
      }
      let character = frame.character(x: x, y: y)
      let bad = character.unicodeScalars.filter { isControl($0) || $0 == "\n" }
      require(bad.isEmpty, fail(y, "control character \(bad.map { String($0.value, radix: 16) }) in the cell at \(x)"))
      require(!cell.isContinuation, fail(y, "a continuation cell with no wide cell before it at \(x)"))
      let measured = DisplayWidth.of(character)
      require(Int(cell.width) == measured, fail(y, "the cell at \(x) holds \(character.debugDescription) of width \(measured) but claims \(cell.width)"))
      require(cell.width == 1 || cell.width == 2, fail(y, "the cell at \(x) has width \(cell.width)"))
      if cell.width == 2 {
        require(x + 1 < frame.width, fail(y, "a wide character in the last column"))
        require(frame[x + 1, y].isContinuation, fail(y, "a wide character at \(x) without its continuation"))
      }
      columns += Int(cell.width)
      x += Int(cell.width)
    }
    require(columns == frame.width, fail(y, "\(columns) columns in a frame \(frame.width) wide"))
  }
  // What `render` prints: the same rows as text.
  let text = FrameText.plain(frame)
  let bad = controlScalars(in: text)
  require(bad.isEmpty, "\(what()): control characters \(bad) in the plain text of the frame")
  for (y, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
    require(DisplayWidth.of(line) <= frame.width, fail(y, "the printed row measures \(DisplayWidth.of(line)) columns"))
  }
}

/// Untrusted strings everywhere a paywall, its catalog and its project put text (titles, texts,
/// features, labels, badges, product names and descriptions, art, alert texts, notices, status
/// entitlements, user attributes), sanitised as the JSON reader sanitises them or, with the first
/// flag, raw; a few keys pressed; the whole app drawn at a size from the input (tiny ones
/// included). Property: `checkFrame`.
let renderTarget = FuzzTarget(name: "render") { bytes in
  var input = InputReader(bytes)
  // Mostly small screens (the tiny ones included), sometimes up to 160x60.
  let width = input.byte() & 0x80 == 0 ? 1 + Int(input.byte() % 40) : 1 + Int(input.byte() % 160)
  let height = input.byte() & 0x80 == 0 ? 1 + Int(input.byte() % 14) : 1 + Int(input.byte() % 60)
  let flags = Int(input.byte()) | Int(input.byte()) << 8
  let raw = flags & 1 != 0
  var strings: [String] = []
  func text() -> String {
    let s = input.string()
    let t = raw ? s : UntrustedText.sanitize(s)
    strings.append(t)
    return t
  }
  func template(_ slot: String) -> TextContent {
    let before = text()
    let after = text()
    let attribute = ProductAttribute.allCases[Int(input.byte()) % ProductAttribute.allCases.count]
    let reference: SlotReference = input.bool() ? .selected : .named(slot)
    let t = TemplateText(segments: [.literal(before), .variable(TemplateVariable(slot: reference, attribute: attribute)), .literal(after)])
    return TextContent(text: t, freeTrialText: input.bool() ? TemplateText(segments: [.literal(text())]) : nil)
  }

  let slotNames = ["primary", "secondary", "tertiary"]
  let locales = ["en_US", "de_DE", "ja_JP", "ar_SA", "he_IL", "fr_FR"]
  var products: [StoreProduct] = []
  for (i, slot) in slotNames.enumerated() {
    let period = SubscriptionPeriod(value: 1 + Int(input.byte() % 12), unit: SubscriptionPeriod.Unit.allCases[Int(input.byte()) % SubscriptionPeriod.Unit.allCases.count])
    let kind: ProductKind = i == 2 && flags & 2 != 0 ? .nonConsumable : .autoRenewable
    let price = Decimal(input.int(0...99_999)) / 100
    let offer: IntroductoryOffer? = input.bool() ? IntroductoryOffer(paymentMode: .freeTrial, period: period) : nil
    products.append(StoreProduct(id: "fuzz.\(slot)", displayName: text(), description: text(), price: price,
                                 currencyCode: ["USD", "EUR", "JPY", "SAR"][Int(input.byte()) % 4],
                                 locale: locales[Int(input.byte()) % locales.count], kind: kind,
                                 subscriptionPeriod: kind == .autoRenewable ? period : nil,
                                 introductoryOffer: kind == .autoRenewable ? offer : nil,
                                 subscriptionGroup: kind == .autoRenewable ? "pro" : nil, groupLevel: kind == .autoRenewable ? 1 : nil,
                                 entitlements: [Entitlement(i == 0 ? text() : "pro")]))
  }
  let catalog = Catalog(products: products, file: "fuzz/catalog.json")
  var components: [PaywallComponent] = []
  let componentCount = Int(input.byte() % 12)
  for _ in 0..<componentCount {
    switch input.byte() % 9 {
    case 0: components.append(.title(template(slotNames[Int(input.byte()) % 3])))
    case 1: components.append(.text(template(slotNames[Int(input.byte()) % 3]), style: TextStyle.allCases[Int(input.byte()) % 3]))
    case 2: components.append(.features(title: input.bool() ? template("primary") : nil,
                                         items: (0..<Int(input.byte() % 5)).map { _ in TextContent(text: TemplateText(segments: [.literal(text())])) }))
    case 3: components.append(.products(ProductPicker(slots: input.bool() ? nil : Array(slotNames.prefix(1 + Int(input.byte() % 3))),
                                                      badges: input.bool() ? [slotNames[Int(input.byte()) % 3]: text()] : [:],
                                                      showsSavings: input.bool())))
    case 4: components.append(.button(PaywallButton(label: template("primary"), action: .purchase(slot: input.bool() ? nil : "secondary"))))
    case 5: components.append(.button(PaywallButton(label: template("tertiary"),
                                                    action: [.restore, .close, .select(slot: "tertiary"), .placement(text())][Int(input.byte()) % 4])))
    case 6: components.append(.divider)
    case 7: components.append(.spacer(lines: 1 + Int(input.byte() % 10)))
    default: components.append(.art(lines: (0..<Int(input.byte() % 4)).map { _ in text() }))
    }
  }
  if components.isEmpty || flags & 4 != 0 {
    components.append(.products(ProductPicker()))
    components.append(.button(PaywallButton(label: TextContent(text: "Continue"), action: .purchase(slot: nil))))
    components.append(.button(PaywallButton(label: TextContent(text: TemplateText(segments: [.literal(text())])), action: .restore)))
  }
  let paywall = PaywallDefinition(id: "fuzz", name: text(), slots: zip(slotNames, products).map { ProductSlot(name: $0, productID: $1.id) },
                                  selectedSlot: slotNames[Int(input.byte()) % 3], components: components)
  let options = PaywallOptions(restoreFailed: RestoreFailedText(title: text(), message: text(), closeButtonTitle: text()))
  let project = Project(name: text(), catalog: catalog, paywalls: [paywall], options: options,
                        campaigns: [])
  let statuses: [SubscriptionStatus] = [.unknown, .inactive, .active([Entitlement(text())])]
  var state = AppState(project: project, options: options, status: statuses[Int(input.byte()) % 3])
  state.size = Size(width: width, height: height)
  _ = AppModel.update(&state, .presentation(.open(paywallID: "fuzz", selected: nil)))
  if flags & 8 != 0 { _ = AppModel.update(&state, .notice(text())) }
  if flags & 16 != 0 { _ = AppModel.update(&state, .controllerProblem(text())) }
  if flags & 32 != 0 { _ = AppModel.update(&state, .presentation(.setUserAttributes([text(): text()]))) }
  if flags & 64 != 0 { _ = AppModel.update(&state, .presentation(.statusChanged(.active([Entitlement(text()), "pro"])))) }
  // A few keys: the focus moves, purchases and restores start (their results come from the input).
  let keys: [Key] = [.tab, .down, .up, .left, .right, .enter, .space, .character("r"), .character("l"), .character("?"),
                     .character("d"), .character("1"), .character("2"), .character("q"), .escape, .backTab]
  for _ in 0..<Int(input.byte() % 6) {
    _ = AppModel.update(&state, .key(keys[Int(input.byte()) % keys.count]))
  }
  switch input.byte() % 5 {
  case 0: _ = AppModel.update(&state, .presentation(.purchaseFinished(.failed(PurchaseError(text())))))
  case 1: _ = AppModel.update(&state, .presentation(.restoreFinished(.failed(PurchaseError(text())), status: .inactive)))
  case 2: _ = AppModel.update(&state, .presentation(.restoreFinished(.restored, status: .inactive)))
  case 3: _ = AppModel.update(&state, .presentation(.purchaseFinished(.purchased)))
  default: break
  }
  if flags & 128 != 0 { state.showsLog.toggle() }
  if flags & 256 != 0 { state.overlay = state.overlay == nil ? .help(scroll: 0) : nil }
  let size = Size(width: width, height: height)
  checkFrame(AppView.render(state, size: size), what: "app \(size)")
  // The paywall alone too, with its click regions (on one input in four: it doubles the work).
  if flags & 0x600 == 0, let session = state.session {
    var screen = PaywallScreenState(paywall: session.paywall, selectedSlot: session.selectedSlot, statusText: state.status.description)
    screen.focus = state.focus
    let rendered = PaywallRenderer.layout(screen, size: size)
    checkFrame(rendered.frame, what: "paywall \(size)")
    for region in rendered.regions {
      require(region.x >= 0 && region.y >= 0 && region.x + region.width <= width && region.y + region.height <= height,
              "a click region \(region) outside the \(size) frame")
    }
  }
}

private extension AppModel {
  /// `update` at a fixed moment: a fuzz input never depends on the day.
  static func update(_ state: inout AppState, _ message: AppMessage) -> [AppEffect] {
    update(&state, message, now: Date(timeIntervalSince1970: 1_800_000_000))
  }
}
