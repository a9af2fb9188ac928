/// The words of a product card around its prices and periods, in the storefront's language:
/// the periods and "per year" are the Unicode CLDR's (`PeriodWords`); the few phrases CLDR has no
/// entry for are ours, below, each written so that no word has to agree with the period's case
/// or gender ("Laufzeit: 1 Monat", "7 Tage gratis", not "jeden Monat"), and short, as a card is
/// 16 columns inside. English keeps the card's own wording ("$59.99/year", "billed monthly",
/// "7-day free trial").
package struct CardWords: Sendable {
  /// `{0}` the price: "59,99 € einmalig".
  package var once: String
  package var lifetime: String
  package var oneTime: String
  /// `{0}` the period: "Laufzeit: 1 Monat".
  package var billing: String
  /// `{0}` the rental's length.
  package var rental: String
  /// `{0}` the trial's length.
  package var trial: String
  /// `{0}` a price (per period, or paid up front), `{1}` the span it lasts: "3 Monate: 0,99 € pro Monat".
  package var during: String
  /// The locale's periods and prices per period.
  package var periods: PeriodWords

  /// The card's words for `locale` ("de_DE", "de-LU": a locale the price tables lack speaks its
  /// language); nil for English and for a language the tables do not cover, which keep the
  /// card's English.
  package static func of(_ locale: String) -> CardWords? {
    // English, nearly every catalog: answered before any allocation (a card asks on every frame).
    if locale.utf8.starts(with: "en".utf8) && (locale.utf8.count == 2 || [UInt8(ascii: "_"), UInt8(ascii: "-")].contains(locale.utf8.dropFirst(2).first!)) {
      return nil
    }
    let name = LocaleName(locale)
    guard name.language != "en", let periods = PeriodWords.of(locale) else { return nil }
    let key = if name.isTraditionalChinese {
      "zh_Hant"
    } else if name.language == "pt" && name.subtags.contains("PT") {
      "pt_PT"
    } else {
      name.language
    }
    guard let phrases = Self.phrases[key] else { return nil }
    return CardWords(once: phrases[0], lifetime: phrases[1], oneTime: phrases[2], billing: phrases[3], rental: phrases[4],
                     trial: phrases[5], during: phrases[6], periods: periods)
  }

  /// Fills `{0}` and `{1}`.
  package static func fill(_ pattern: String, _ first: String, _ second: String = "") -> String {
    pattern.replacingOccurrences(of: "{0}", with: first).replacingOccurrences(of: "{1}", with: second)
  }

  /// Every language of the price tables but English: a price once, lifetime access, a one-time
  /// purchase, the billing period, a rental, a free trial, a price during a span.
  package static let phrases: [String: [String]] = [
    "ar": ["{0} مرة واحدة", "وصول دائم", "شراء لمرة واحدة", "المدة: {0}", "استئجار: {0}", "{0} مجانًا", "{1}: {0}"],
    "cs": ["{0} jednorázově", "doživotní přístup", "jednorázový nákup", "období: {0}", "pronájem: {0}", "{0} zdarma", "{1}: {0}"],
    "da": ["{0} én gang", "livstidsadgang", "engangskøb", "periode: {0}", "leje: {0}", "{0} gratis", "{1}: {0}"],
    "de": ["{0} einmalig", "Zugang für immer", "Einmalkauf", "Laufzeit: {0}", "{0} leihen", "{0} gratis", "{1}: {0}"],
    "el": ["{0} εφάπαξ", "πρόσβαση για πάντα", "εφάπαξ αγορά", "περίοδος: {0}", "ενοικίαση: {0}", "{0} δωρεάν", "{1}: {0}"],
    "es": ["{0} una vez", "acceso de por vida", "compra única", "duración: {0}", "alquiler: {0}", "{0} gratis", "{1}: {0}"],
    "fi": ["{0} kerran", "ikuinen käyttö", "kertaosto", "jakso: {0}", "vuokra: {0}", "{0} ilmaiseksi", "{1}: {0}"],
    "fr": ["{0} une fois", "accès à vie", "achat unique", "durée : {0}", "location : {0}", "{0} gratis", "{1} : {0}"],
    "he": ["{0} חד-פעמי", "גישה לתמיד", "רכישה חד-פעמית", "תקופה: {0}", "השכרה: {0}", "{0} חינם", "{1}: {0}"],
    "hi": ["{0} एक बार", "आजीवन एक्सेस", "एक बार की खरीद", "अवधि: {0}", "किराया: {0}", "{0} मुफ़्त", "{1}: {0}"],
    "hu": ["{0} egyszeri", "örökös hozzáférés", "egyszeri vásárlás", "időszak: {0}", "kölcsönzés: {0}", "{0} ingyen", "{1}: {0}"],
    "id": ["{0} sekali", "akses selamanya", "beli sekali", "periode: {0}", "sewa: {0}", "gratis {0}", "{1}: {0}"],
    "it": ["{0} una volta", "accesso a vita", "acquisto singolo", "durata: {0}", "noleggio: {0}", "{0} gratis", "{1}: {0}"],
    "ja": ["{0}（買い切り）", "永続アクセス", "1回限りの購入", "期間：{0}", "レンタル：{0}", "{0}無料", "{1}：{0}"],
    "ko": ["{0} 1회", "평생 이용", "1회 구매", "기간: {0}", "대여: {0}", "{0} 무료", "{1}: {0}"],
    "ms": ["{0} sekali", "akses selamanya", "beli sekali", "tempoh: {0}", "sewa: {0}", "percuma {0}", "{1}: {0}"],
    "nb": ["{0} én gang", "livstidstilgang", "engangskjøp", "periode: {0}", "leie: {0}", "{0} gratis", "{1}: {0}"],
    "nl": ["{0} eenmalig", "altijd toegang", "eenmalige aankoop", "looptijd: {0}", "huur: {0}", "{0} gratis", "{1}: {0}"],
    "pl": ["{0} jednorazowo", "dostęp na zawsze", "zakup jednorazowy", "okres: {0}", "wypożyczenie: {0}", "{0} za darmo", "{1}: {0}"],
    "pt": ["{0} uma vez", "acesso vitalício", "compra única", "duração: {0}", "aluguel: {0}", "{0} grátis", "{1}: {0}"],
    "pt_PT": ["{0} uma vez", "acesso vitalício", "compra única", "duração: {0}", "aluguer: {0}", "{0} grátis", "{1}: {0}"],
    "ro": ["{0} o dată", "acces pe viață", "achiziție unică", "perioadă: {0}", "închiriere: {0}", "{0} gratuit", "{1}: {0}"],
    "ru": ["{0} разово", "доступ навсегда", "разовая покупка", "период: {0}", "аренда: {0}", "{0} бесплатно", "{1}: {0}"],
    "sv": ["{0} engång", "livstidsåtkomst", "engångsköp", "period: {0}", "hyra: {0}", "{0} gratis", "{1}: {0}"],
    "th": ["{0} ครั้งเดียว", "ใช้ได้ตลอดชีพ", "ซื้อครั้งเดียว", "รอบ: {0}", "เช่า: {0}", "ฟรี {0}", "{1}: {0}"],
    "tr": ["{0} tek sefer", "ömür boyu erişim", "tek seferlik alım", "dönem: {0}", "kiralama: {0}", "{0} ücretsiz", "{1}: {0}"],
    "uk": ["{0} разово", "доступ назавжди", "разова покупка", "період: {0}", "оренда: {0}", "{0} безкоштовно", "{1}: {0}"],
    "vi": ["{0} một lần", "dùng trọn đời", "mua một lần", "chu kỳ: {0}", "thuê: {0}", "miễn phí {0}", "{1}: {0}"],
    "zh": ["{0} 一次性", "永久使用", "一次性购买", "周期：{0}", "租期：{0}", "免费{0}", "{1}：{0}"],
    "zh_Hant": ["{0} 一次性", "永久使用", "一次性購買", "週期：{0}", "租期：{0}", "免費{0}", "{1}：{0}"],
  ]
}
