import PaywallModel
import Testing

/// A product card's words follow the storefront's language: periods and prices per period from
/// the CLDR with each language's plural rule, and the phrases CLDR has none for from our table.
@Suite("Card words in the storefront's language")
struct CardWordsTests {
  /// Every locale the price tables format has the card's words, except English, whose wording
  /// is the card's own; each phrase keeps the placeholders it is filled with.
  @Test func everyPriceLocaleHasItsWords() {
    for locale in Catalog.formatLocales {
      let words = CardWords.of(locale)
      if locale == "en" || locale.hasPrefix("en_") {
        #expect(words == nil, "\(locale)")
        continue
      }
      guard let words else {
        Issue.record("\(locale) has prices but no card words")
        continue
      }
      for (name, phrase, holes) in [("once", words.once, ["{0}"]), ("billing", words.billing, ["{0}"]), ("rental", words.rental, ["{0}"]),
                                    ("trial", words.trial, ["{0}"]), ("during", words.during, ["{0}", "{1}"]),
                                    ("lifetime", words.lifetime, []), ("oneTime", words.oneTime, [])] {
        for hole in ["{0}", "{1}"] {
          #expect(phrase.contains(hole) == holes.contains(hole), "\(locale) \(name): \(phrase)")
        }
      }
      for unit in SubscriptionPeriod.Unit.allCases {
        #expect(words.periods.per("P", unit).contains("P"), "\(locale) \(unit)")
        #expect(!words.periods.count(3, unit).isEmpty, "\(locale) \(unit)")
      }
    }
  }

  /// The plural forms are the language's (CLDR's rules): Russian's one, few and many by the last
  /// two digits, Polish's, Arabic's six with its own digits, French's 0 and 1 as one.
  @Test(arguments: [
    ("ru_RU", 1, SubscriptionPeriod.Unit.month, "1 месяц"), ("ru_RU", 2, .month, "2 месяца"), ("ru_RU", 5, .month, "5 месяцев"),
    ("ru_RU", 11, .month, "11 месяцев"), ("ru_RU", 21, .month, "21 месяц"), ("ru_RU", 112, .month, "112 месяцев"), ("ru_RU", 222, .month, "222 месяца"),
    ("pl_PL", 1, .day, "1 dzień"), ("pl_PL", 3, .week, "3 tygodnie"), ("pl_PL", 12, .month, "12 miesięcy"),
    ("de_DE", 1, .day, "1 Tag"), ("de_DE", 7, .day, "7 Tage"), ("fr_FR", 1, .year, "1\u{A0}an"), ("fr_FR", 2, .year, "2 ans"),
    ("ar_SA", 2, .month, "شهران"), ("ar_SA", 3, .month, "٣ أشهر"), ("ar_SA", 11, .month, "١١ شهرًا"),
    ("ja_JP", 7, .day, "7 日"),
  ])
  func aCountIsSaidAsTheLanguageSaysIt(locale: String, count: Int, unit: SubscriptionPeriod.Unit, said: String) throws {
    let words = try #require(PeriodWords.of(locale))
    #expect(words.count(count, unit) == said)
  }

  @Test func aPricePerPeriod() throws {
    let german = try #require(PeriodWords.of("de_DE"))
    #expect(german.per("59,99 €", SubscriptionPeriod(value: 1, unit: .year)) == "59,99 € pro Jahr")
    #expect(german.per("29,99 €", SubscriptionPeriod(value: 3, unit: .month)) == "29,99 € / 3 Monate")
    #expect(try #require(PeriodWords.of("ja_JP")).per("¥600", .month) == "¥600/月")
    #expect(PeriodWords.of("xx_XX") == nil)
  }

  /// A catalog may name a locale the price tables lack ("de_LU", "de-DE"): its prices are
  /// formatted in its language, and so are its words, never English around German numbers.
  @Test func aLocaleTheTablesLackSpeaksItsLanguage() throws {
    for locale in ["de_LU", "de-DE", "de"] {
      #expect(try #require(CardWords.of(locale), "\(locale)").lifetime == "Zugang für immer")
    }
    #expect(try #require(CardWords.of("zh-Hant-TW")).oneTime == "一次性購買")
    // Traditional Chinese's period words are Traditional too ("週", not "周").
    #expect(try #require(CardWords.of("zh_Hant_TW")).periods.count(2, .week) == (try #require(PeriodWords.of("zh_TW"))).count(2, .week))
    #expect(try #require(CardWords.of("no_NO")).lifetime == "livstidstilgang")
    #expect(try #require(CardWords.of("pt-PT")).rental == "aluguer: {0}")
    #expect(CardWords.of("en-GB") == nil)
  }
}
