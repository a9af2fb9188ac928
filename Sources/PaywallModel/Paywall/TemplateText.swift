/// Which product a template variable reads: a named slot or whichever slot is selected.
public enum SlotReference: Sendable, Hashable {
  case selected
  case named(String)
}

/// `{{ products.primary.price }}`, `{{ primary.price }}` or `{{ products.selected.price }}`.
public struct TemplateVariable: Sendable, Hashable {
  /// The slot whose product is read.
  public var slot: SlotReference
  /// The attribute read from that product.
  public var attribute: ProductAttribute
}

/// `{{ user.firstName }}`, `{{ params.source }}`, `{{ device.locale }}`: the non-product
/// variables the SDK gives a paywall's template (`Paywall/View Controller/Web View/Templating/
/// Models/Variables.swift`: `user` is the user attributes, `params` the placement's, `device` the
/// device's). `user` and `params` are emulated; `device` renders empty and `validate` says so.
public struct ContextVariable: Sendable, Hashable {
  /// The object read.
  public enum Scope: String, Sendable, Hashable, CaseIterable {
    case user, params, device
  }
  /// `user`, `params` or `device`.
  public var scope: Scope
  /// The key read (`firstName`); may contain dots, read as one key.
  public var key: String
}

/// Text with template variables, parsed and checked once when the paywall is read.
public struct TemplateText: Sendable, Hashable, ExpressibleByStringLiteral {
  /// A run of literal text or one variable.
  public enum Segment: Sendable, Hashable {
    case literal(String)
    case variable(TemplateVariable)
    case context(ContextVariable)
  }

  /// The text's runs, in order.
  public var segments: [Segment]

  /// A text made of `segments`.
  public init(segments: [Segment]) {
    self.segments = segments
  }

  /// A literal text without variables.
  public init(stringLiteral value: String) {
    self.segments = [.literal(value)]
  }

  /// The product variables the text uses, in order (repeats included).
  public var variables: [TemplateVariable] {
    segments.compactMap { if case .variable(let v) = $0 { v } else { nil } }
  }

  /// A problem in a template, with its offset (in Unicode scalars) inside the decoded string. A
  /// warning is something that parses but will not do on a device what it does here.
  package struct Problem: Error, Sendable, Equatable {
    package var message: String
    package var offset: Int
    package var isWarning = false
  }

  /// The legacy top-level product objects: the SDK sets `primary`, `secondary` and `tertiary`
  /// beside `products` for v3 paywalls (`Variables.swift`), and no other slot name.
  static let legacySlots: Set<String> = ["primary", "secondary", "tertiary"]

  /// Parses `text`, checking slots against `slots` and attributes against `ProductAttribute`;
  /// the first error, as `parseAll` finds it.
  package static func parse(_ text: String, slots: [String]) -> Result<TemplateText, Problem> {
    let (template, problems) = parseAll(text, slots: slots)
    if let template { return .success(template) }
    return .failure(problems.first { !$0.isWarning }!)
  }

  /// Parses `text` and reports every problem of it: every unknown variable, not only the first,
  /// and the warnings. The template is nil when there is an error. `memo` keeps each variable's
  /// verdict for `slots` (a paywall's texts repeat the same few variables).
  package static func parseAll(_ text: String, slots: [String], memo: VariableMemo? = nil) -> (TemplateText?, [Problem]) {
    var source = text
    return source.withUTF8 { bytes -> (TemplateText?, [Problem]) in
      // Found on the UTF-8 bytes: `{` and `}` are ASCII, so every cut falls between scalars.
      guard var open = ByteSearch.doubled(UInt8(ascii: "{"), in: bytes, from: 0) else {
        return (TemplateText(segments: bytes.isEmpty ? [] : [.literal(text)]), [])
      }
      var segments: [Segment] = []
      var problems: [Problem] = []
      var start = 0
      var offset = 0
      while true {
        if open > start { segments.append(.literal(string(bytes, start..<open))) }
        offset += ByteSearch.scalarCount(bytes, start..<open)
        guard let close = ByteSearch.doubled(UInt8(ascii: "}"), in: bytes, from: open + 2) else {
          problems.append(Problem(message: "'{{' is never closed with '}}'", offset: offset))
          start = bytes.count
          break
        }
        let (segment, found) = verdict(on: UnsafeBufferPointer(rebasing: bytes[(open + 2)..<close]), slots: slots, memo: memo)
        if let segment { segments.append(segment) }
        problems += found.map { Problem(message: $0.message, offset: offset, isWarning: $0.isWarning) }
        offset += 2 + ByteSearch.scalarCount(bytes, (open + 2)..<close) + 2
        start = close + 2
        guard let next = ByteSearch.doubled(UInt8(ascii: "{"), in: bytes, from: start) else { break }
        open = next
      }
      if start < bytes.count { segments.append(.literal(string(bytes, start..<bytes.count))) }
      let failed = problems.contains { !$0.isWarning }
      return (failed ? nil : TemplateText(segments: segments), problems)
    }
  }

  /// The variable written `inner` between `{{` and `}}`: its segment (nil on an error) and its
  /// problems, at offset 0. `memo` keeps the verdict when `inner` is ASCII: two ASCII strings are
  /// equal only when their bytes are, where String's == takes `café` with a combining accent for
  /// the precomposed one (or K for a Kelvin sign), and a remembered message would quote the other.
  package static func verdict(on inner: UnsafeBufferPointer<UInt8>, slots: [String], memo: VariableMemo?) -> (Segment?, [Problem]) {
    let kept = inner.allSatisfy { $0 < 0x80 } ? memo : nil
    if let known = kept?.verdict(on: inner) { return known }
    let found = variable(String(decoding: inner, as: UTF8.self), slots: slots)
    kept?.remember(inner, found)
    return found
  }

  /// Each variable's verdict, kept while one paywall's texts are read (for its slots only). A
  /// paywall spells a few variables many times: they are kept in a list compared byte for byte
  /// (a String made and hashed for each lookup was most of a lookup), the first `capacity` of them.
  package final class VariableMemo {
    private var spellings: [[UInt8]] = []
    private var verdicts: [(Segment?, [Problem])] = []
    package static let capacity = 32
    package init() {}

    fileprivate func verdict(on inner: UnsafeBufferPointer<UInt8>) -> (Segment?, [Problem])? {
      for (index, spelling) in spellings.enumerated() where spelling.count == inner.count {
        if spelling.withUnsafeBufferPointer({ ByteSearch.equal($0, inner) }) { return verdicts[index] }
      }
      return nil
    }

    fileprivate func remember(_ inner: UnsafeBufferPointer<UInt8>, _ verdict: (Segment?, [Problem])) {
      guard spellings.count < Self.capacity else { return }
      spellings.append(Array(inner))
      verdicts.append(verdict)
    }
  }

  private static func string(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
    String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
  }

  private static func variable(_ inner: String, slots: [String]) -> (Segment?, [Problem]) {
    let expression = inner.trimmingSpaces()
    // Split on the UTF-8 bytes: `.` is ASCII, and the generic split by Character was slow.
    var parts = expression.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
      .map { String(decoding: $0, as: UTF8.self) }
    if parts.count >= 2, let scope = ContextVariable.Scope(rawValue: parts[0]), !slots.contains(parts[0]),
       !parts.dropFirst().contains(where: \.isEmpty) {
      let variable = ContextVariable(scope: scope, key: parts.dropFirst().joined(separator: "."))
      var warnings: [Problem] = []
      if scope == .device {
        warnings.append(Problem(message: "\(quoting: "{{ \(expression) }}") renders empty here: the emulator has no device variables in templates", offset: 0, isWarning: true))
      }
      return (.context(variable), warnings)
    }
    let legacy = !(parts.count == 3 && parts[0] == "products")
    if !legacy { parts.removeFirst() }
    guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
      return (nil, [Problem(message: "unknown template variable \(quoting: "{{ \(expression) }}"); write {{ products.SLOT.ATTRIBUTE }}, e.g. {{ products.primary.price }}", offset: 0)])
    }
    var problems: [Problem] = []
    let slotName = parts[0]
    var slot: SlotReference?
    if slotName == "selected" {
      slot = .selected
    } else if slots.contains(slotName) {
      if legacy && !legacySlots.contains(slotName) {
        problems.append(Problem(message: "\(quoting: "{{ \(expression) }}") is empty on a device: the SDK's short form {{ SLOT.ATTRIBUTE }} exists only for primary, secondary and tertiary; write {{ products.\(slotName).\(parts[1]) }}", offset: 0))
      }
      slot = .named(slotName)
    } else {
      let known = (slots + ["selected"]).map { "\(quoting: $0)" }.joined(separator: ", ")
      problems.append(Problem(message: "unknown product slot \(quoting: slotName) in \(quoting: "{{ \(expression) }}")\(Suggestions.hint(for: slotName, in: slots + ["selected"])) (slots: \(known))", offset: 0))
    }
    let attribute = ProductAttribute(rawValue: parts[1])
    if let attribute, !attribute.isSuperwallVariable {
      problems.append(Problem(message: "\(quoting: "{{ \(expression) }}") is the emulator's own: the SDK has no product variable \(quoting: parts[1]), so a device renders it empty", offset: 0, isWarning: true))
    } else if attribute == nil {
      let names = ProductAttribute.allCases.map(\.rawValue)
      problems.append(Problem(message: "unknown product attribute \(quoting: parts[1]) in \(quoting: "{{ \(expression) }}")\(Suggestions.hint(for: parts[1], in: names))", offset: 0))
    }
    guard let slot, let attribute, !problems.contains(where: { !$0.isWarning }) else { return (nil, problems) }
    return (.variable(TemplateVariable(slot: slot, attribute: attribute)), problems)
  }
}
