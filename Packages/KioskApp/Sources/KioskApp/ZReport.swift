import Foundation
import Menu
import Stock
import Tabs

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
  /// restores the state: what they sold or moved is not in this report.
  public var uncounted: [Int] = []
  /// Bytes after the last whole record: a torn or damaged tail the report could not read.
  public var unreadTailBytes = 0

  /// The total charged.
  public var charged: Decimal { charges.reduce(0) { $0 + $1.amount } }
  /// The total refunded.
  public var refunded: Decimal { refunds.reduce(0) { $0 + $1.amount } }
  /// Charged less refunded: the sum of `sales`.
  public var net: Decimal { charged - refunded }

  /// Replays the day in the journal file at `path` from its first record;
  /// `each` sees every entry as it is read, so a caller that needs the records
  /// too (the head office's sync) reads the file once.
  public static func build(
    path: String, progress: ((Int, Int) -> Void)? = nil,
    each: (Int, KioskJournalReader.Entry) throws -> Void = { _, _ in }
  ) throws -> ZReport {
    var world = ReplayWorld()
    var replay = KioskReplay.Progress()
    var day = 1
    var opening = StockState()
    var sold: [Item.ID: Int] = [:]
    var charges: [Movement] = []
    var refunds: [Movement] = []
    var uncounted: [Int] = []
    // After a lost command the state is unknown until the next checkpoint restores it.
    var lostState = false
    let summary = try KioskJournalReader.walk(path: path, progress: progress) { sequence, entry in
      try each(sequence, entry)
      switch entry {
      case .checkpoint(let checkpoint):
        // Only the day's first record starts the replay; a later checkpoint is the same state,
        // unless a lost record left the state unknown.
        guard sequence == 1 || lostState else { return }
        world.restore(checkpoint.state)
        replay = KioskReplay.Progress(checkpoint: checkpoint)
        day = checkpoint.day
        if sequence == 1 { opening = checkpoint.state.stock }
        lostState = false
      case .lost(let record):
        if record != .checkpoint || sequence == 1 {
          uncounted.append(sequence)
          lostState = true
        }
      case .record(let record):
        guard !lostState else { return uncounted.append(sequence) }
        if case .initialized(_, let stock) = record { opening = stock }
        if case .settled(let receipt) = record {
          for item in world.tabs.open[receipt.tab]?.lines ?? [] { sold[item, default: 0] += 1 }
          charges.append(Movement(tab: receipt.tab, amount: receipt.total, reference: receipt.reference))
        }
        let undone = try KioskReplay.apply(record, sequence: sequence, to: &world, progress: &replay)
        if let undone, case .settled(let receipt) = undone.record, case .undone(let refund, _) = record {
          // The tab is open again with the lines it was settled with.
          for item in world.tabs.open[receipt.tab]?.lines ?? [] { sold[item, default: 0] -= 1 }
          refunds.append(Movement(tab: receipt.tab, amount: receipt.total, reference: refund ?? "none"))
        }
      }
    }
    let menu = world.menu
    let sales = sold.filter { $0.value != 0 }.sorted { $0.key < $1.key }.map { item, count in
      let price = menu.items[item]?.price ?? 0
      return Sale(
        item: item, name: menu.items[item]?.name ?? "item \(item.raw)", count: count, total: price * Decimal(count))
    }
    let settled = world.tabs.open.values.filter(\.settled).count
    return ZReport(
      day: day, sales: sales, charges: charges, refunds: refunds, openingStock: opening, closingStock: world.stock,
      settledTabs: settled, openTabs: world.tabs.open.count - settled, closingState: world.snapshot,
      uncounted: uncounted, unreadTailBytes: summary.unreadTailBytes)
  }
}
