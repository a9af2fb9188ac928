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

/// Text with template variables, parsed and checked once when the paywall is read.
public struct TemplateText: Sendable, Hashable, ExpressibleByStringLiteral {
  /// A run of literal text or one variable.
  public enum Segment: Sendable, Hashable {
    case literal(String)
    case variable(TemplateVariable)
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

  /// The variables the text uses, in order (repeats included).
  public var variables: [TemplateVariable] {
    segments.compactMap { if case .variable(let v) = $0 { v } else { nil } }
  }

  /// A problem in a template, with its offset (in Unicode scalars) inside the decoded string.
  package struct Problem: Error, Sendable, Equatable {
    package var message: String
    package var offset: Int
  }

  /// Parses `text`, checking slots against `slots` and attributes against `ProductAttribute`.
  package static func parse(_ text: String, slots: [String]) -> Result<TemplateText, Problem> {
    var segments: [Segment] = []
    var rest = Substring(text)
    var offset = 0
    while let open = rest.firstRange(of: "{{") {
      let literal = rest[..<open.lowerBound]
      if !literal.isEmpty { segments.append(.literal(String(literal))) }
      offset += literal.unicodeScalars.count
      let afterOpen = rest[open.upperBound...]
      guard let close = afterOpen.firstRange(of: "}}") else {
        return .failure(Problem(message: "'{{' is never closed with '}}'", offset: offset))
      }
      let inner = afterOpen[..<close.lowerBound]
      switch variable(String(inner), slots: slots) {
      case .success(let v): segments.append(.variable(v))
      case .failure(let problem): return .failure(Problem(message: problem.message, offset: offset))
      }
      offset += 2 + inner.unicodeScalars.count + 2
      rest = afterOpen[close.upperBound...]
    }
    if !rest.isEmpty { segments.append(.literal(String(rest))) }
    return .success(TemplateText(segments: segments))
  }

  private static func variable(_ inner: String, slots: [String]) -> Result<TemplateVariable, Problem> {
    let expression = inner.trimmingSpaces()
    var parts = expression.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    if parts.count == 3 && parts[0] == "products" { parts.removeFirst() }
    guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
      return .failure(Problem(message: "unknown template variable \(quoting: "{{ \(expression) }}"); write {{ products.SLOT.ATTRIBUTE }}, e.g. {{ products.primary.price }}", offset: 0))
    }
    let slotName = parts[0]
    let slot: SlotReference
    if slotName == "selected" {
      slot = .selected
    } else if slots.contains(slotName) {
      slot = .named(slotName)
    } else {
      let known = (slots + ["selected"]).map { "\(quoting: $0)" }.joined(separator: ", ")
      return .failure(Problem(message: "unknown product slot \(quoting: slotName) in \(quoting: "{{ \(expression) }}")\(Suggestions.hint(for: slotName, in: slots + ["selected"])) (slots: \(known))", offset: 0))
    }
    guard let attribute = ProductAttribute(rawValue: parts[1]) else {
      let names = ProductAttribute.allCases.map(\.rawValue)
      return .failure(Problem(message: "unknown product attribute \(quoting: parts[1]) in \(quoting: "{{ \(expression) }}")\(Suggestions.hint(for: parts[1], in: names))", offset: 0))
    }
    return .success(TemplateVariable(slot: slot, attribute: attribute))
  }
}

import Foundation
