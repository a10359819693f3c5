import Journal

/// A ledger entry writes its own bytes, the same the journal's `JSONEncoder`
/// writes for its synthesized `Codable` (`LedgerEntryEncodingTests` compares
/// them): every charge and refund appends one.
extension ProcessorLedger.Entry: JournalEncodable {
  public func writeJournal(to writer: inout JournalJSONWriter) -> Bool {
    writer.beginObject()
    writer.key("amount")
    writer.decimal(amount)
    if let charge {
      writer.key("charge")
      writer.string(charge)
    }
    writer.key("key")
    writer.string(key.raw)
    writer.key("kind")
    writer.string(kind.rawValue)
    writer.key("reference")
    writer.string(reference)
    writer.endObject()
    return true
  }
}
