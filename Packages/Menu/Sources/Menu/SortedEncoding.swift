extension KeyedEncodingContainer {
  /// Encodes `dictionary` in key order, in the shape Swift's own `Dictionary`
  /// decoding reads for keys that are neither `String` nor `Int` (key, value,
  /// key, value…): the bytes then depend only on the value, never on hash
  /// order, which is what the canonical state and its digest need.
  @inlinable public mutating func encodeSorted<DictionaryKey: Encodable, Value: Encodable>(
    _ dictionary: [DictionaryKey: Value], forKey key: Key,
    by areInIncreasingOrder: (DictionaryKey, DictionaryKey) -> Bool
  ) throws {
    var pairs = nestedUnkeyedContainer(forKey: key)
    for (entryKey, value) in dictionary.sorted(by: { areInIncreasingOrder($0.key, $1.key) }) {
      try pairs.encode(entryKey)
      try pairs.encode(value)
    }
  }
}
