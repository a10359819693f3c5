import Journal
import Menu
import Payment
import Stock
import Tabs

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A record writes its own journal bytes. In a journal of format 3, its
/// canonical form (`KioskRecord+CanonicalJournal.swift`). In one of format 2,
/// which a writer continuing a day begun before format 3 still writes: the
/// same `JSONEncoder` (sorted keys) writes for its synthesized `Codable`, at a
/// fraction of the cost (a command spent most of its instructions in the
/// encoder). There, `initialized` and
/// `dayClosed`, written once a day, are left to the encoder, as is a receipt
/// whose time the writer cannot vouch for. `KioskRecordEncodingTests` compares
/// the bytes with the encoder's over random records.
extension KioskRecord: JournalEncodable {
  public func writeJournal(to writer: inout JournalJSONWriter) -> Bool {
    if writer.canonical { return writeCanonical(to: &writer) }
    // What is left to the encoder is decided before anything is written.
    switch self {
    case .initialized, .dayClosed, .tillNamed: return false
    case .settled(let receipt) where !JournalJSONWriter.writes(receipt.chargedAt.timeIntervalSinceReferenceDate):
      return false
    default: break
    }
    writer.beginObject()
    switch self {
    case .initialized, .dayClosed, .tillNamed:
      return false
    case .opened(let tab, let customer):
      writer.key("opened")
      writer.beginObject()
      writer.key("customer")
      writer.string(customer)
      writer.rawID("tab", tab.raw)
      writer.endObject()
    case .added(let item, let tab):
      writer.key("added")
      Self.write(item: item, tab: tab, to: &writer)
    case .removed(let item, let tab):
      writer.key("removed")
      Self.write(item: item, tab: tab, to: &writer)
    case .paymentIntent(let intent):
      writer.key("paymentIntent")
      writer.beginObject()
      writer.key("_0")
      writer.beginObject()
      writer.key("amount")
      writer.decimal(intent.amount)
      if let charge = intent.charge {
        writer.key("charge")
        writer.string(charge)
      }
      writer.key("key")
      writer.string(intent.key.raw)
      writer.key("kind")
      writer.string(intent.kind.rawValue)
      writer.rawID("tab", intent.tab.raw)
      writer.endObject()
      writer.endObject()
    case .paymentAbandoned(let key, let reason):
      writer.key("paymentAbandoned")
      writer.abandonment(key: key, reason: reason)
    case .settled(let receipt):
      writer.key("settled")
      writer.beginObject()
      writer.key("_0")
      writer.receipt(receipt)
      writer.endObject()
    case .restocked(let ingredient, let count):
      writer.key("restocked")
      writer.delivery(of: ingredient, count: count)
    case .undone(let refund, let key):
      writer.key("undone")
      writer.beginObject()
      if let key {
        writer.key("key")
        writer.string(key.raw)
      }
      if let refund {
        writer.key("refund")
        writer.string(refund)
      }
      writer.endObject()
    }
    writer.endObject()
    return true
  }

  /// `{"item":{"raw":I},"tab":{"raw":T}}`.
  fileprivate static func write(item: Item.ID, tab: Tab.ID, to writer: inout JournalJSONWriter) {
    writer.beginObject()
    writer.rawID("item", item.raw)
    writer.rawID("tab", tab.raw)
    writer.endObject()
  }
}

extension JournalJSONWriter {
  /// A receipt as the encoder writes it, for a receipt whose time the writer
  /// vouches for (`JournalJSONWriter.writes`); its caller checks that first.
  package mutating func receipt(_ receipt: Receipt) {
    beginObject()
    key("chargedAt")
    _ = double(receipt.chargedAt.timeIntervalSinceReferenceDate)  // checked by the caller
    if let key = receipt.key {
      self.key("key")
      string(key.raw)
    }
    key("reference")
    string(receipt.reference)
    rawID("tab", receipt.tab.raw)
    key("total")
    decimal(receipt.total)
    endObject()
  }

  /// `{"key":"…","reason":"…"}`: an abandoned payment's body, spelled alike
  /// in every format (the encoder's and the canonical form).
  package mutating func abandonment(key: IdempotencyKey, reason: String) {
    beginObject()
    self.key("key")
    string(key.raw)
    self.key("reason")
    string(reason)
    endObject()
  }

  /// `{"count":N,"ingredient":"…"}`: a restock's body, spelled alike in every
  /// format (the encoder's and the canonical form).
  package mutating func delivery(of ingredient: Ingredient, count: Int) {
    beginObject()
    key("count")
    int(count)
    key("ingredient")
    string(ingredient.rawValue)
    endObject()
  }

  /// A tab as the encoder writes it: `{"customer":"…","lines":[{"raw":L},…]}`.
  package mutating func tab(_ tab: Tab) {
    beginObject()
    key("customer")
    string(tab.customer)
    key("lines")
    beginArray()
    for line in tab.lines { rawID(line.raw) }
    endArray()
    endObject()
  }
}
