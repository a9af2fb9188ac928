extension Array where Element == String {
  /// Where `value` is in this array, sorted as Swift orders strings, by binary search; nil when
  /// it is not there. For the tables looked up before the first paint (the generated price
  /// formats, the SDK's event names): a Set or Dictionary of them would be built, every key
  /// hashed, to answer a handful of questions.
  func sortedIndex(of value: String) -> Int? {
    var low = 0
    var high = count
    while low < high {
      let middle = (low + high) / 2
      if self[middle] < value { low = middle + 1 } else { high = middle }
    }
    return low < count && self[low] == value ? low : nil
  }
}
