import KioskCommands
import Menu
import Payment
import Stock
import Tabs

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension ZReport {
  /// A day's Z report, built one entry at a time from the day's first record:
  /// from an archive (`build(path:)`) or from the rows a head office holds
  /// (`HeadOfficeSync.audit`), by the same replay.
  struct Builder {
    private var world = ReplayWorld()
    private var replay = KioskReplay.Progress()
    private var day = 1
    private var opening = StockState()
    private var sold: [Item.ID: Int] = [:]
    private var charges: [Movement] = []
    private var refunds: [Movement] = []
    private var uncounted: [Int] = []
    /// The day's refund intents by key: a refund's amount and tab, for an undo
    /// whose undo history a lost record left unknown. Refunds are few; charges
    /// need none, their receipt says it all.
    private var refundIntents: [IdempotencyKey: PaymentIntent] = [:]
    /// After a lost command the state is unknown until the next checkpoint restores it.
    private(set) var lostState = false

    /// Takes the day's entry numbered `sequence`.
    mutating func take(_ sequence: Int, _ entry: KioskJournalReader.Entry) throws {
      switch entry {
      case .checkpoint(let checkpoint):
        // Only the day's first record starts the replay; a later checkpoint is the same state,
        // unless a lost record left the state unknown.
        guard sequence == 1 || lostState else { return }
        world.restore(checkpoint.state)
        replay = KioskReplay.Progress(checkpoint: checkpoint)
        day = checkpoint.day
        if sequence == 1 { opening = checkpoint.state.stock }
        for intent in checkpoint.openIntents where intent.kind == .refund { refundIntents[intent.key] = intent }
        lostState = false
      case .lost(let record):
        if record != .checkpoint || sequence == 1 {
          uncounted.append(sequence)
          lostState = true
        }
      case .record(let record):
        if case .paymentIntent(let intent) = record, intent.kind == .refund { refundIntents[intent.key] = intent }
        guard !lostState else {
          // What the state cannot say (what was sold) is uncounted; money records say what moved.
          countMoney(of: record)
          return uncounted.append(sequence)
        }
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

    /// Counts the charge of a settle, or the refund of an undone one, from the
    /// record alone (and the refund's intent), while the state is unknown.
    private mutating func countMoney(of record: KioskRecord) {
      switch record {
      case .settled(let receipt):
        charges.append(Movement(tab: receipt.tab, amount: receipt.total, reference: receipt.reference))
      case .undone(let refund?, let key?):
        guard let intent = refundIntents[key] else { return }
        refunds.append(Movement(tab: intent.tab, amount: intent.amount, reference: refund))
      default: break
      }
    }

    /// Whether a checkpoint numbered `sequence` would restore the state: the
    /// day's first record, or the first checkpoint after a lost command.
    func needsCheckpoint(at sequence: Int) -> Bool { sequence == 1 || lostState }

    /// The report of every entry taken.
    func report(unreadTailBytes: Int) -> ZReport {
      let menu = world.menu
      let sales = sold.filter { $0.value != 0 }.sorted { $0.key < $1.key }.map { item, count in
        let price = menu.items[item]?.price ?? 0
        return Sale(
          item: item, name: menu.items[item]?.name ?? "item \(item.raw)", count: count, total: price * Decimal(count))
      }
      return ZReport(
        day: day, sales: sales, charges: charges, refunds: refunds, openingStock: opening, closingStock: world.stock,
        settledTabs: world.tabs.settled.count, openTabs: world.tabs.open.count, closingState: world.snapshot,
        uncounted: uncounted, unreadTailBytes: unreadTailBytes)
    }
  }
}
