import Foundation
import PaywallModel
import Testing

/// The one-pass decoder of encoder-shaped base64 stands in front of Foundation's skipping decoder
/// for `paywalljs_event`: whatever it accepts must decode to Foundation's bytes, and it must accept
/// all that an encoder writes, or the import would read substitutions differently (or never gain).
@Suite("canonical base64")
struct CanonicalBase64Tests {
  static func foundation(_ text: String) -> [UInt8]? {
    Data(base64Encoded: text, options: .ignoreUnknownCharacters).map { [UInt8]($0) }
  }

  @Test func everyEncodingIsAcceptedAndDecodesToItsBytes() {
    var random = SplitMix64(seed: 0xB64)
    for length in 1...200 {
      let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }
      let text = Data(bytes).base64EncodedString()
      #expect(CanonicalBase64.decode(text) == bytes, "\(length) bytes: \(text)")
    }
  }

  @Test func whatItAcceptsFoundationDecodesAlike() {
    // Encodings with one to three characters changed, inserted or removed: padding moved into the
    // middle, stray `=`, bytes outside the alphabet, lengths off by one. Foundation accepts some of
    // these on its own terms (`Ur=U`); the canonical decoder must refuse them or agree.
    var random = SplitMix64(seed: 0x5EED)
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=-_ !\n\u{E9}".utf8)
    var accepted = 0, refused = 0
    for _ in 0..<6_000 {
      let length = Int.random(in: 1...24, using: &random)
      var text = Array(Data((0..<length).map { _ in UInt8.random(in: 0...255, using: &random) }).base64EncodedString().utf8)
      for _ in 0..<Int.random(in: 1...3, using: &random) {
        let at = Int.random(in: 0..<text.count, using: &random)
        switch Int.random(in: 0..<3, using: &random) {
        case 0: text[at] = alphabet.randomElement(using: &random)!
        case 1: text.insert(alphabet.randomElement(using: &random)!, at: at)
        default: if text.count > 1 { text.remove(at: at) }
        }
      }
      let string = String(decoding: text, as: UTF8.self)
      guard let ours = CanonicalBase64.decode(string) else { refused += 1; continue }
      accepted += 1
      #expect(ours == Self.foundation(string), "\(string)")
    }
    // Both sides exercised: a mutation that keeps the shape (a letter for a letter) is accepted.
    #expect(accepted > 500 && refused > 500, "accepted \(accepted), refused \(refused)")
  }

  @Test(arguments: ["", "A", "AB", "ABC", "A===", "====", "AB=C", "Ur=U", "AgXqsX=O", "58cT2w=H=", "QQ==QQ==", "QQ=\n", "QUJD\nREVG", " QUJD", "QUJD!"])
  func misshapenTextIsLeftToFoundation(_ text: String) {
    #expect(CanonicalBase64.decode(text) == nil)
  }

  @Test func paddedEndsDecodeToTheirBytes() {
    #expect(CanonicalBase64.decode("QQ==") == [0x41])
    #expect(CanonicalBase64.decode("QUI=") == [0x41, 0x42])
    #expect(CanonicalBase64.decode("QUJD") == [0x41, 0x42, 0x43])
    #expect(CanonicalBase64.decode("+/+/") == [0xFB, 0xFF, 0xBF])
  }
}
