import Menu
import Stock
import Tabs

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The day's Z report, printed by `kiosk close-day`: what was sold, every
/// charge and refund with its reference, and the stock at opening and closing.
/// Built by replaying the day's file from its first record, so it says what
/// the journal says, not what a counter kept in memory says.
public struct ZReport: Equatable, Sendable {
  /// One item's sales, net of refunds.
  public struct Sale: Equatable, Sendable {
    /// The item.
    public var item: Item.ID
    /// Its name.
    public var name: String
    /// How many were sold.
    public var count: Int
    /// What they came to.
    public var total: Decimal
  }

  /// One movement of money.
  public struct Movement: Equatable, Sendable {
    /// The tab it was for.
    public var tab: Tab.ID
    /// How much.
    public var amount: Decimal
    /// The processor's reference.
    public var reference: String
  }

  /// The day.
  public var day: Int
  /// Sales by item, net of refunds, by item number.
  public var sales: [Sale]
  /// Every charge, in order.
  public var charges: [Movement]
  /// Every refund (an undone settle), in order.
  public var refunds: [Movement]
  /// The stock when the day opened.
  public var openingStock: StockState
  /// The stock at the close.
  public var closingStock: StockState
  /// Settled tabs, moved to the archive.
  public var settledTabs: Int
  /// Open tabs, carried over to the next day.
  public var openTabs: Int
  /// The state the day's records replay to.
  public var closingState: KioskSnapshot
  /// Records lost to damage (placeholders `kiosk repair` left), by sequence
  /// number, and every record between a lost command and the checkpoint that
  /// restores the state: what they sold is not in this report. Their charges
  /// and refunds are, from the money records themselves (a receipt; an undo's
  /// refund intent), so the report's money is what the processor moved.
  public var uncounted: [Int] = []
  /// Bytes after the last whole record: a torn or damaged tail the report could not read.
  public var unreadTailBytes = 0

  /// The total charged.
  public var charged: Decimal { charges.reduce(0) { $0 + $1.amount } }
  /// The total refunded.
  public var refunded: Decimal { refunds.reduce(0) { $0 + $1.amount } }
  /// Charged less refunded: the sum of `sales`, but for what uncounted records sold.
  public var net: Decimal { charged - refunded }

  /// Replays the day in the journal file at `path` from its first record;
  /// `each` sees every entry as it is read, so a caller that needs the records
  /// too (the head office's sync) reads the file once.
  public static func build(
    path: String, progress: ((Int, Int) -> Void)? = nil,
    each: (Int, KioskJournalReader.Entry) throws -> Void = { _, _ in }
  ) throws -> ZReport {
    var builder = Builder()
    let summary = try KioskJournalReader.walk(path: path, progress: progress) { sequence, entry in
      try each(sequence, entry)
      try builder.take(sequence, entry)
    }
    return builder.report(unreadTailBytes: summary.unreadTailBytes)
  }
}
