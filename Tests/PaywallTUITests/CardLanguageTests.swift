import PaywallTesting
import Testing

/// The product cards speak the storefront's language, as the App Store's own sheets do: what
/// `render` draws for a German, Japanese or Saudi storefront, and English as it always was.
@Suite("Cards in the storefront's language")
struct CardLanguageTests {
  static func cards(_ arguments: [String]) throws -> String {
    let result = try PaywallBinary.run(["render", Fixtures.demoDirectory, "--size", "100x30"] + arguments)
    #expect(result.status == 0, "\(result.stderr)")
    return result.stdout
  }

  @Test func aGermanStorefrontsCards() throws {
    // A German price has a no-break space before the euro sign (ICU's format).
    let screen = try Self.cards(["--storefront", "DEU"])
    for words in ["59,99\u{A0}€ pro Jahr", "4,99\u{A0}€ pro Monat", "7 Tage gratis", "9,99\u{A0}€ pro Monat", "Laufzeit: 1 Monat",
                  "149,99\u{A0}€ einmalig", "Zugang für immer"] {
      #expect(screen.contains(words), "\(words) not in:\n\(screen)")
    }
    #expect(!screen.contains("billed monthly") && !screen.contains("lifetime access"), "\(screen)")
  }

  @Test func aJapaneseStorefrontsCards() throws {
    let screen = try Self.cards(["--storefront", "JPN"])
    for words in ["/年", "/月", "7 日無料", "期間：1 か月", "永続アクセス"] {
      #expect(screen.contains(words), "\(words) not in:\n\(screen)")
    }
  }

  /// Arabic counts in the digits its prices are written in.
  @Test func anArabicLocaleCountsInItsDigits() throws {
    let screen = try Self.cards(["--locale", "ar_SA"])
    #expect(screen.contains("٧ أيام مجانًا"), "\(screen)")
    #expect(screen.contains("في السنة"), "\(screen)")
  }

  @Test func englishIsTheCardsOwnWording() throws {
    for arguments in [[], ["--storefront", "GBR"], ["--locale", "en_IN"]] {
      let screen = try Self.cards(arguments)
      for words in ["/year", "billed monthly", "7-day free trial", "once", "lifetime access"] {
        #expect(screen.contains(words), "\(arguments): \(words) not in:\n\(screen)")
      }
    }
  }

  /// A period of several units is named as one ("$2.99/2 weeks", "every 2 weeks"), where
  /// the SDK's `period` word names the unit alone ("week"): a two-week plan read as weekly.
  @Test func severalUnitsAreNotOne() throws {
    let catalog = """
      {"currency": "USD", "locale": "en_US", "products": [
        {"id": "biweekly", "name": "Fortnight", "price": "2.99", "period": "P2W", "group": "g", "entitlements": ["pro"]},
        {"id": "threedays", "name": "Weekend", "price": "1.99", "period": "P3D", "group": "g", "entitlements": ["pro"]},
        {"id": "quarter", "name": "Quarter", "price": "19.99", "period": "P3M", "group": "g", "entitlements": ["pro"]}]}
      """
    let paywall = """
      {"id": "p", "name": "P", "products": {"primary": "biweekly", "secondary": "threedays", "tertiary": "quarter"},
       "components": [{"type": "products"}, {"type": "button", "label": "Restore purchases", "action": "restore"}]}
      """
    let directory = try Fixtures.directory(["catalog.json": catalog, "p.json": paywall])
    let result = try PaywallBinary.run(["render", directory + "/p.json", "--catalog", directory + "/catalog.json", "--size", "100x30"])
    #expect(result.status == 0, "\(result.stderr)")
    for words in ["$2.99/2 weeks", "every 2 weeks", "$1.99/3 days", "every 3 days", "$19.99/quarter"] {
      #expect(result.stdout.contains(words), "\(words) not in:\n\(result.stdout)")
    }
  }
}
