import Journal
import Menu
import Payment
import Tabs

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A record reads its own journal bytes, in the form of its journal's format
/// (`decoded(from:version:decoder:)`). Format 2 (this file): every process that opens the journal
/// replays the records after the last checkpoint, and `JSONDecoder` spent
/// about 60,000 instructions on each. The reader mirrors the writer
/// (`KioskRecord+JournalEncoding.swift`) exactly; `initialized`, `dayClosed`,
/// and bytes in any other form (whitespace, other escapes, a key the writer
/// does not write) are left to `JSONDecoder`. `KioskRecordDecodingTests`
/// compares both readings over random records.
extension KioskRecord: JournalDecodable {
  public static func readJournal(_ bytes: ArraySlice<UInt8>) -> KioskRecord? {
    var reader = JournalJSONReader(bytes)
    guard let record = reader.record(), reader.isAtEnd else { return nil }
    return record
  }

  /// A record of a journal of format 3 in its canonical form
  /// (`readCanonical`), one of an older journal as above.
  public static func decoded(from bytes: ArraySlice<UInt8>, version: UInt16, decoder: JSONDecoder) throws
    -> KioskRecord
  {
    try decoded(from: bytes, version: version, making: decoder)
  }

  /// A record as `decoded(from:version:decoder:)` reads it, for a reader
  /// with no decoder at hand: one is made only for a journal older than
  /// format 3 (made and let go for each record replayed, one cost about 950
  /// instructions a record).
  public static func decoded(from bytes: ArraySlice<UInt8>, version: UInt16) throws -> KioskRecord {
    try decoded(from: bytes, version: version, making: JSONDecoder())
  }

  private static func decoded(
    from bytes: ArraySlice<UInt8>, version: UInt16, making decoder: @autoclosure () -> JSONDecoder
  ) throws -> KioskRecord {
    guard version >= JournalFormat.canonicalVersion else { return try decoded(from: bytes, decoder: decoder()) }
    return try readCanonical(bytes)
  }
}

extension JournalJSONReader {
  /// A record as the writer writes it, `{` to `}`; nil, moving nothing, on anything else.
  package mutating func record() -> KioskRecord? {
    let start = index
    guard literal("{"), let record = recordBody(), literal("}") else {
      index = start
      return nil
    }
    return record
  }

  /// The record's one key and its value, as the writer writes them.
  fileprivate mutating func recordBody() -> KioskRecord? {
    if key("opened") {
      guard literal("{"), key("customer"), let customer = string(), nextKey("tab"), let tab = rawID(), literal("}")
      else { return nil }
      return .opened(tab: Tab.ID(raw: tab), customer: customer)
    }
    if key("added") {
      guard let (item, tab) = itemAndTab() else { return nil }
      return .added(item: item, tab: tab)
    }
    if key("removed") {
      guard let (item, tab) = itemAndTab() else { return nil }
      return .removed(item: item, tab: tab)
    }
    if key("settled") {
      guard literal("{"), key("_0"), let receipt = receipt(), literal("}") else { return nil }
      return .settled(receipt)
    }
    if key("paymentIntent") {
      guard literal("{"), key("_0"), literal("{"), key("amount"), let amount = decimal() else { return nil }
      var charge: String?
      if nextKey("charge") {
        guard let text = string() else { return nil }
        charge = text
      }
      guard nextKey("key"), let key = string(), nextKey("kind"), let kindText = string(),
        let kind = PaymentIntent.Kind(rawValue: kindText), nextKey("tab"), let tab = rawID(), literal("}}")
      else { return nil }
      return .paymentIntent(
        PaymentIntent(kind: kind, key: IdempotencyKey(key), tab: Tab.ID(raw: tab), amount: amount, charge: charge))
    }
    if key("restocked") {
      guard literal("{"), key("count"), let count = int(), nextKey("ingredient"), let name = string(),
        let ingredient = Ingredient(rawValue: name), literal("}")
      else { return nil }
      return .restocked(ingredient: ingredient, count: count)
    }
    if key("undone") {
      guard literal("{") else { return nil }
      var idempotencyKey: IdempotencyKey?
      var refund: String?
      if key("key") {
        guard let raw = string() else { return nil }
        idempotencyKey = IdempotencyKey(raw)
      }
      if idempotencyKey == nil ? key("refund") : nextKey("refund") {
        guard let text = string() else { return nil }
        refund = text
      }
      guard literal("}") else { return nil }
      return .undone(refund: refund, key: idempotencyKey)
    }
    if key("paymentAbandoned") {
      guard literal("{"), key("key"), let key = string(), nextKey("reason"), let reason = string(), literal("}")
      else { return nil }
      return .paymentAbandoned(key: IdempotencyKey(key), reason: reason)
    }
    return nil
  }

  /// A receipt as the writer writes it (`JournalJSONWriter.receipt`).
  package mutating func receipt() -> Receipt? {
    guard literal("{"), key("chargedAt"), let seconds = double() else { return nil }
    var idempotencyKey: IdempotencyKey?
    if nextKey("key") {
      guard let raw = string() else { return nil }
      idempotencyKey = IdempotencyKey(raw)
    }
    guard nextKey("reference"), let reference = string(), nextKey("tab"), let tab = rawID(), nextKey("total"),
      let total = decimal(), literal("}")
    else { return nil }
    return Receipt(
      tab: Tab.ID(raw: tab), total: total, chargedAt: Date(timeIntervalSinceReferenceDate: seconds),
      reference: reference, key: idempotencyKey)
  }

  /// `{"item":{"raw":I},"tab":{"raw":T}}`.
  private mutating func itemAndTab() -> (Item.ID, Tab.ID)? {
    guard literal("{"), key("item"), let item = rawID(), nextKey("tab"), let tab = rawID(), literal("}") else {
      return nil
    }
    return (Item.ID(raw: item), Tab.ID(raw: tab))
  }
}
