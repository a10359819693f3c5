import CanonicalJSON
import Journal
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

extension KioskShell {
  /// Runs `action` on the world (`run(_:)`, shared with scenarios and the
  /// replay server), then journals its record, synced, before returning it.
  ///
  /// No copy of any slice is taken: a domain command checks everything before
  /// it writes, so one that is refused has changed nothing, and when the
  /// append throws, the entry's inverse, taken before the command ran, puts
  /// the world back. The cost of a command is its own, not the slices'.
  /// Settle and undo move money, so they run as steps with an effect
  /// (`settle(_:)`, `undo()`, in KioskShell+Effects.swift).
  @discardableResult
  private func execute(_ action: KioskAction) throws -> UndoHistory.Entry {
    try commit { world in
      do throws(ActionRefusal) { return try world.run(action) } catch { throw error.error }
    }
  }

  /// What runs before any command that writes: a checkpoint when one is due,
  /// then reconciliation of open intents.
  func prepareToWrite() throws {
    if isTornDown { throw KioskShellError.tornDown }
    try refuseWhileRefundInFlight()
    try checkpointIfDue()
    try reconcileOpenIntents()
    reconciledBeforeCommand = reconciled.count
  }

  /// Runs `command`, journals the entry's record, and pushes the entry on the
  /// undo history; when the append (or `beforeAppend`) throws, the entry's
  /// inverse puts the world back.
  func commit(
    beforeAppend: () throws -> Void = {}, _ command: (inout KioskWorld) throws -> UndoHistory.Entry
  ) throws -> UndoHistory.Entry {
    let entry = try command(&world)
    do {
      try beforeAppend()
      try append(entry.record)
    } catch {
      world.revert(entry.step)
      throw error
    }
    history.push(entry)
    didJournal(entry.record)
    if let settled = SettledTabsEntry.made(by: entry) { settledTabs.append(SettledTabsFile.payload(of: settled)) }
    didChange()
    return entry
  }

  /// Journals a record that changes no slice (an intent, an abandonment, the close of a day).
  func journal(_ record: KioskRecord) throws {
    try append(record)
    didJournal(record)
  }

  /// Appends a command's record, refusing first, with nothing written, one
  /// holding an amount the journal's format cannot: a day begun in version 2
  /// holds any amount, one of version 3 whole cents below
  /// `CanonicalMoney.limit` (a tab summed past it, say).
  private func append(_ record: KioskRecord) throws {
    if world.journal.version >= JournalFormat.canonicalVersion, let amount = record.amountWithoutCanonicalForm {
      throw KioskShellError.amountNotJournalable(amount: amount, version: world.journal.version)
    }
    try world.journal.append(record)
  }

  /// Keeps `records` and `openIntents` in step with a record the journal just
  /// made durable: the one place an intent opens or closes.
  private func didJournal(_ record: KioskRecord) {
    records.append(record)
    if case .paymentIntent(let intent) = record {
      openIntents.append(intent)
      paymentsJournaled = true
    }
    if let key = record.outcomeKey { openIntents.removeAll { $0.key == key } }
  }

  /// The key for an intent for `tab` about to be journaled: the journal's
  /// salt, the intent record's own sequence number and the tab, so it is
  /// recomputable and the processor's movements for the tab can be found.
  private func nextKey(for tab: Tab.ID) -> IdempotencyKey {
    IdempotencyKey(journalSalt: world.journal.salt, sequence: world.journal.lastSequence + 1, tab: tab.raw)
  }

  /// Journals an intent under a key the processor has never seen, and returns
  /// the key. A sequence number comes back after the journal was cut back (a
  /// repair, a torn tail, a restored copy), and the processor answers a known
  /// key with its first outcome: so each candidate key is asked about first,
  /// and one already used is journaled as abandoned and the next one tried.
  func journalFreshIntent(kind: PaymentIntent.Kind, tab: Tab.ID, amount: Decimal, charge: String? = nil)
    throws -> IdempotencyKey
  {
    for _ in 0..<1_000 {
      let key = nextKey(for: tab)
      try journal(.paymentIntent(PaymentIntent(kind: kind, key: key, tab: tab, amount: amount, charge: charge)))
      let status: PaymentStatus
      do { status = try world.payment.status(of: key) } catch { throw KioskError.payment(error) }
      guard status != .unknown else { return key }
      try journal(
        .paymentAbandoned(
          key: key, reason: "the processor already used this key (the journal was cut back); not reused"))
    }
    throw KioskShellError.noFreshKey
  }

  /// Opens a tab and returns its id.
  public func openTab(for customer: String) throws -> Tab.ID {
    try prepareToWrite()
    guard case .opened(let id, _) = try execute(.openTab(customer: customer)).record else {
      preconditionFailure("opening a tab records `opened`")
    }
    return id
  }

  /// Adds an item to a tab.
  public func add(_ item: Item.ID, to tab: Tab.ID) throws {
    try refuseIfInFlight(tab)
    try prepareToWrite()
    try execute(.add(item: item, tab: tab))
  }

  /// Takes the last `item` off a tab.
  public func remove(_ item: Item.ID, from tab: Tab.ID) throws {
    try refuseIfInFlight(tab)
    try prepareToWrite()
    try execute(.remove(item: item, tab: tab))
  }

  /// Adds stock.
  public func restock(_ ingredient: Ingredient, count: Int) throws {
    try prepareToWrite()
    try execute(.restock(ingredient: ingredient, count: count))
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

  /// Journals the undo of the newest history entry and reverts it (the apply
  /// phase, `applyUndo`, shared with scenarios); `beforeAppend` is the crash seam.
  func completeUndo(refund: String?, key: IdempotencyKey?, beforeAppend: () throws -> Void = {}) throws {
    guard let entry = history.last else { return }
    try beforeAppend()
    try append(KioskRecord.undone(refund: refund, key: refund == nil ? nil : key))
    let record = world.applyUndo(of: entry, refund: refund, key: key, history: &history)
    didJournal(record)
    if let reopened = SettledTabsEntry.undoing(entry) { settledTabs.append(SettledTabsFile.payload(of: reopened)) }
    didChange()
  }
}
