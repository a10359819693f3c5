#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// One closed day of one till, as the head office stores it: every record of
/// the day's journal, its Z report's totals and sales, and the digest of the
/// state the day closed with.
public struct TillDay: Equatable, Sendable {
  /// One record of the day's journal.
  public struct Record: Equatable, Sendable {
    /// Its sequence number in the day's file, from 1.
    public var sequence: Int
    /// What kind of record it is (`opened`, `settled`, …).
    public var kind: String
    /// The tab it concerns, when it concerns one.
    public var tab: Int?
    /// The money it moves, when it moves money (a settle's total).
    public var amount: Decimal?
    /// The record as the journal holds it.
    public var body: String

    /// A record.
    public init(sequence: Int, kind: String, tab: Int? = nil, amount: Decimal? = nil, body: String) {
      self.sequence = sequence
      self.kind = kind
      self.tab = tab
      self.amount = amount
      self.body = body
    }
  }

  /// One line of the Z report: an item's sales, net of refunds.
  public struct Sale: Equatable, Sendable {
    /// The item's number on the menu.
    public var item: Int
    /// Its name that day.
    public var name: String
    /// How many were sold.
    public var count: Int
    /// What they brought in.
    public var total: Decimal

    /// A sale.
    public init(item: Int, name: String, count: Int, total: Decimal) {
      self.item = item
      self.name = name
      self.count = count
      self.total = total
    }
  }

  /// One ingredient's units at the day's opening and at its close.
  public struct Stock: Equatable, Sendable {
    /// The ingredient's name (`milk`).
    public var ingredient: String
    /// Units when the day opened.
    public var opening: Int
    /// Units when it closed.
    public var closing: Int

    /// A stock line.
    public init(ingredient: String, opening: Int, closing: Int) {
      self.ingredient = ingredient
      self.opening = opening
      self.closing = closing
    }
  }

  /// The journal file a day was read from: what, with the records' bytes,
  /// makes that very file again (`JournalImage`).
  public struct File: Equatable, Sendable {
    /// The journal's version: how each record's bytes are encoded.
    public var version: Int
    /// The salt in the file's header.
    public var salt: UInt64
    /// The CRC-32C of the whole file.
    public var crc: UInt32

    /// A file's identity.
    public init(version: Int, salt: UInt64, crc: UInt32) {
      self.version = version
      self.salt = salt
      self.crc = crc
    }
  }

  /// The till's name in the chain.
  public var till: String
  /// The day's number, from 1.
  public var day: Int
  /// What identifies the day's contents: two deliveries of one day agree on it,
  /// and a different day under the same till and number does not. The kiosk
  /// digests the records and the closing state (`HeadOfficeSync.closedDay`).
  public var digest: String
  /// Every record of the day, in order.
  public var records: [Record]
  /// The Z report's sales by item.
  public var sales: [Sale]
  /// Money charged that day.
  public var charged: Decimal
  /// Money refunded that day.
  public var refunded: Decimal
  /// Tabs settled that day.
  public var settledTabs: Int
  /// The stock at opening and at closing, by ingredient.
  public var stock: [Stock]
  /// The file the records are the bytes of; nil for a day shipped before the
  /// head office kept them (its records are then in the encoder's form, and
  /// only the checkpoints a replay needs have their content).
  public var file: File?

  /// A closed day.
  public init(
    till: String, day: Int, digest: String, records: [Record], sales: [Sale], charged: Decimal, refunded: Decimal,
    settledTabs: Int, stock: [Stock] = []
  ) {
    self.till = till
    self.day = day
    self.digest = digest
    self.records = records
    self.sales = sales
    self.charged = charged
    self.refunded = refunded
    self.settledTabs = settledTabs
    self.stock = stock
  }
}
