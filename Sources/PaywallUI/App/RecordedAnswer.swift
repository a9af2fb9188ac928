import PaywallModel

/// A purchase controller's answer as a script writes it: `answer purchase failed 1200ms Card
/// declined` (`answer purchase|restore RESULT DURATION [MESSAGE…]`).
package struct RecordedAnswer: Sendable, Hashable {
  package enum Request: String, Sendable, Hashable {
    case purchase, restore

    /// The request an effect starts, if it starts one.
    package init?(_ effect: AppEffect) {
      switch effect {
      case .purchase: self = .purchase
      case .restore: self = .restore
      default: return nil
      }
    }
  }

  package static let purchaseResults = ["purchased", "cancelled", "pending", "restored", "failed"]
  package static let restoreResults = ["restored", "failed"]

  package var request: Request
  /// A `PurchaseResult` or `RestorationResult` name.
  package var result: String
  /// A failure's message (empty: none).
  package var message = ""
  /// How long the controller took, on the clock.
  package var seconds: Double

  package init(request: Request, result: String, message: String = "", seconds: Double) {
    self.request = request
    self.result = result
    self.message = message
    self.seconds = seconds
  }

  package init(purchase result: PurchaseResult, seconds: Double) {
    switch result {
    case .failed(let error as StoreError): self.init(request: .purchase, result: Self.failed(error), seconds: seconds)
    case .failed(let error): self.init(request: .purchase, result: result.name, message: error.displayMessage, seconds: seconds)
    default: self.init(request: .purchase, result: result.name, seconds: seconds)
    }
  }

  package init(restore result: RestorationResult, seconds: Double) {
    switch result {
    case .failed(let error as StoreError): self.init(request: .restore, result: Self.failed(error), seconds: seconds)
    case .failed(let error?): self.init(request: .restore, result: result.name, message: error.displayMessage, seconds: seconds)
    default: self.init(request: .restore, result: result.name, seconds: seconds)
    }
  }

  /// `failed:NAME`: a failure with StoreKit's typed error, which replays typed (a cancel stays a cancel).
  package static func failed(_ error: StoreError) -> String { "failed:\(error.rawValue)" }

  /// The StoreKit error of a `failed:NAME` result; nil for any other.
  package static func storeError(in result: String) -> StoreError? {
    guard result.hasPrefix("failed:") else { return nil }
    return StoreError(rawValue: String(result.dropFirst("failed:".count)))
  }

  /// The script line. The message is the rest of the line, as a person writes it (`Card
  /// declined`), when it reads back so; else it is a JSON string (`"Card #1 \"x\"\nretry"`), so
  /// that what a comment (` #`), a double quote (it opens a quoted stretch of the line), a
  /// backslash, a line break or a space at either end would change replays exactly as the
  /// controller said it.
  package var line: String {
    "answer \(request.rawValue) \(result) \(Int((seconds * 1000).rounded()))ms" + (message.isEmpty ? "" : " " + Self.messageText(message))
  }

  /// `message` as the `answer` line holds it: bare when `PlayScript` reads it back unchanged.
  package static func messageText(_ message: String) -> String {
    let bare = !message.contains("\"") && !message.contains("#") && !message.contains("\\")
      && message.unicodeScalars.allSatisfy { !UntrustedText.isRemoved($0) && !$0.properties.isWhitespace || $0 == " " }
      && message.first != " " && message.last != " "
    return bare ? message : JSONText.quote(message)
  }

  /// The message of an `answer` line (the text after its duration): a JSON string as `line`
  /// writes one, else the text itself.
  package static func message(reading text: String) -> String {
    guard text.count >= 2, text.first == "\"", text.last == "\"", let node = try? JSONParser.parse(text), let decoded = node.stringValue else {
      return text
    }
    return decoded
  }

  package var purchaseResult: PurchaseResult {
    if let error = Self.storeError(in: result) { return .failed(error) }
    return switch result {
    case "purchased": .purchased
    case "cancelled": .cancelled
    case "pending": .pending
    case "restored": .restored
    default: .failed(PurchaseError(message.isEmpty ? "The purchase failed" : message))
    }
  }

  package var restorationResult: RestorationResult {
    if let error = Self.storeError(in: result) { return .failed(error) }
    return result == "restored" ? .restored : .failed(message.isEmpty ? nil : PurchaseError(message))
  }
}
