/// How many decimals a currency's prices have (ISO 4217 minor units): 2 for most, none for the yen
/// and the others listed, 3 for the dinars and rials listed.
enum CurrencyMinorUnits {
  static let none: Set<String> = ["BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG", "RWF", "UGX", "UYI", "VND",
                                  "VUV", "XAF", "XOF", "XPF"]
  static let three: Set<String> = ["BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND"]

  /// The decimals of `currency` (an ISO 4217 code).
  static func digits(_ currency: String) -> Int {
    if none.contains(currency) { return 0 }
    if three.contains(currency) { return 3 }
    return 2
  }
}
