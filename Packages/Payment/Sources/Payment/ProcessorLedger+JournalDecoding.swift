import Journal

/// A ledger entry reads its own bytes, the mirror of its writer: every writer
/// that opens the till reads the whole ledger, and `JSONDecoder` was most of
/// that. Bytes in any other form are left to `JSONDecoder`
/// (`LedgerEntryEncodingTests` compares both readings).
extension ProcessorLedger.Entry: JournalDecodable {
  public static func readJournal(_ bytes: ArraySlice<UInt8>) -> ProcessorLedger.Entry? {
    var reader = JournalJSONReader(bytes)
    guard reader.literal("{"), reader.key("amount"), let amount = reader.decimal() else { return nil }
    var charge: String?
    if reader.nextKey("charge") {
      guard let text = reader.string() else { return nil }
      charge = text
    }
    guard reader.nextKey("key"), let key = reader.string(), reader.nextKey("kind"),
      let kindText = reader.string(), let kind = Kind(rawValue: kindText), reader.nextKey("reference"),
      let reference = reader.string(), reader.literal("}"), reader.isAtEnd
    else { return nil }
    return ProcessorLedger.Entry(
      kind: kind, key: IdempotencyKey(key), reference: reference, amount: amount, charge: charge)
  }
}
