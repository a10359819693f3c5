import Journal
import Menu
import Observation
import Payment
import Stock
import Tabs

/// The one owner of the world: recovers it from the journal, runs each command
/// with a checkpoint, journals it durably before acknowledging it, rolls back
/// on any error, keeps the undo history, and tells observers when state changed.
///
/// The world never leaves the main actor, so it needs no locks and no
/// `Sendable` conformance. Observation tracks `revision`; the world itself is
/// `~Copyable` and ignored by the macro.
@MainActor @Observable
public final class KioskShell {
  @ObservationIgnored private var world: KioskWorld
  @ObservationIgnored private var history: UndoHistory
  /// Every journaled record, oldest first (what `history` and `verify` read).
  @ObservationIgnored public private(set) var records: [KioskRecord]

  /// Bumped after every change to the world; observe it to redraw.
  public private(set) var revision = 0

  /// Bytes of a torn tail the journal dropped when it was opened.
  public let droppedBytes: Int

  /// Opens the kiosk on `journal`: replays its records, or, for a new journal,
  /// journals `menu` and `stock` as the first record.
  public init(
    journal: consuming DurableJournal, gateway: consuming StripeGateway = StripeGateway(),
    menu: MenuState = KioskDefaults.menu, stock: StockState = KioskDefaults.stock
  ) throws {
    droppedBytes = journal.recovery.droppedBytes
    var records = try KioskReplay.records(of: journal)
    var world = KioskWorld(stripeGateway: gateway, journal: journal)
    if records.isEmpty {
      let first = KioskRecord.initialized(menu: menu, stock: stock)
      try world.journal.append(first)
      records = [first]
    }
    history = try KioskReplay.replay(records, into: &world)
    self.records = records
    self.world = world
  }

  /// Runs `command` on the world; it returns the record to journal and a result.
  /// The record is appended and synced before the result is returned; if the
  /// command or the append throws, the world is restored and nothing is kept.
  private func execute<Result>(_ command: (inout KioskWorld) throws -> (KioskRecord, Result)) throws -> Result {
    let checkpoint = world.snapshot
    do {
      let (record, result) = try command(&world)
      try world.journal.append(record)
      history.push(UndoHistory.Entry(record: record, before: checkpoint))
      records.append(record)
      revision += 1
      return result
    } catch {
      world.restore(checkpoint)
      throw error
    }
  }

  /// Opens a tab and returns its id.
  public func openTab(for customer: String) throws -> Tab.ID {
    try execute { world in
      let id = world.openTab(for: customer)
      return (.opened(tab: id, customer: customer), id)
    }
  }

  /// Adds an item to a tab.
  public func add(_ item: Item.ID, to tab: Tab.ID) throws {
    try execute { world in
      try world.add(item, to: tab)
      return (.added(item: item, tab: tab), ())
    }
  }

  /// Settles a tab: charges it and returns the receipt.
  public func settle(_ tab: Tab.ID) throws -> Receipt {
    try execute { world in
      let receipt = try world.settle(tab)
      return (.settled(receipt), receipt)
    }
  }

  /// Adds stock.
  public func restock(_ ingredient: Ingredient, count: Int) throws {
    try execute { world in
      try world.restock(ingredient, count: count)
      return (.restocked(ingredient: ingredient, count: count), ())
    }
  }

  /// What `undo` reverted.
  public struct Undone: Equatable, Sendable {
    /// The command that was reverted.
    public var record: KioskRecord
    /// The refund's reference, when the command was a settle.
    public var refund: String?

    /// Creates the description.
    public init(record: KioskRecord, refund: String?) {
      self.record = record
      self.refund = refund
    }
  }

  /// Reverts the last command still on the undo stack; nil when there is none.
  ///
  /// Undoing a settle refunds the charge through the gateway (the money goes
  /// back to the customer), then puts the tab back open and the stock back.
  /// The undo is itself journaled, with the refund's reference.
  public func undo() throws -> Undone? {
    guard let entry = history.entries.last, let before = entry.before else { return nil }
    var refund: String?
    if case .settled(let receipt) = entry.record {
      refund = try world.payment.refund(receipt.reference, amount: receipt.total)
    }
    let record = KioskRecord.undone(refund: refund)
    try world.journal.append(record)
    world.restore(before)
    _ = history.pop()
    records.append(record)
    revision += 1
    return Undone(record: entry.record, refund: refund)
  }

  /// How many commands `undo` can revert.
  public var undoDepth: Int { history.entries.count }

  /// The current state.
  public var snapshot: KioskSnapshot {
    _ = revision
    return world.snapshot
  }

  /// The board of tabs, as the view layer shows it: read-only by type.
  public var board: String {
    _ = revision
    return renderBoard(world)
  }

  /// Whether the kitchen can make `item` now.
  public func isAvailable(_ item: Item.ID) -> Bool {
    _ = revision
    return world.isAvailable(item)
  }
}
