import Journal
import KioskCommands
import Menu
import Payment
import Tabs

extension KioskShell {
  /// How many commands `undo` can revert.
  public var undoDepth: Int { history.count }

  /// The current state.
  public var snapshot: KioskSnapshot {
    _ = revision
    return world.snapshot
  }

  /// Every open tab, oldest first, as the view layer shows it: read-only by type.
  public var board: [BoardEntry] {
    _ = revision
    return world.board
  }

  /// The day's settled tabs, from the settled-tabs file this shell keeps (or,
  /// when it is behind, from a replay of the day's file).
  public func settledListing() throws -> SettledListing {
    _ = revision
    let counted = world.tabs.settled
    if let mark = settledTabs.mark,
      let entries = SettledTabsFile.entries(besideJournal: journalPath, salt: world.journal.salt, through: mark)
    {
      return SettledListing(entries, counted: counted)
    }
    return SettledListing(try SettledTabsFile.replayedEntries(ofDay: journalPath), counted: counted)
  }

  /// The open tab `id`, if there is one: a read of one value, no slice copied.
  public func tab(_ id: Tab.ID) -> Tab? {
    _ = revision
    return world.tabs.open[id]
  }

  /// The menu's items for `lines`, in order (a line not on the menu is left out).
  public func items(_ lines: [Item.ID]) -> [Item] {
    _ = revision
    return lines.compactMap { world.menu.items[$0] }
  }

  /// Whether the kitchen can make `item` now.
  public func isAvailable(_ item: Item.ID) -> Bool {
    _ = revision
    return world.isAvailable(item)
  }

  /// The processor's movements this shell read and made, oldest first: the
  /// live day's (the ledger is read from where the day began), or the whole
  /// ledger when the shell was opened with the processor read whole.
  public var processorLedger: [LocalProcessor.Entry] { world.processor.entries }

  /// The processor's whole ledger and every day's journal side by side (the
  /// ledger read from its file, without a lock: this shell may hold only the day's part).
  public func paymentAudit() throws -> PaymentAudit {
    try PaymentAudit.of(journal: journalPath, ledger: world.processor.path)
  }

  /// What the reading commands show, from this shell's state; with
  /// `withLedger`, the processor's whole ledger too, read from its file.
  public func view(withLedger: Bool) throws -> KioskView {
    var view = self.view
    if withLedger {
      let ledger = try KioskView.readLedgerFile(world.processor.path)
      (view.ledger, view.ledgerLost) = (ledger.entries, ledger.lost)
    }
    return view
  }

  /// What the reading commands show, from this shell's state (the processor's
  /// movements as `processorLedger`).
  public var view: KioskView {
    _ = revision
    return KioskView(
      snapshot: world.snapshot, day: day, openIntents: openIntents, ledger: world.processor.entries,
      ledgerLost: world.processor.lostNumbers, unreadTailBytes: 0)
  }

  /// The journal file (the live day's).
  public var journalPath: String { world.journal.path }

  /// What opening the processor's ledger found (a torn tail cut, and where it was saved).
  public var ledgerRecovery: JournalRecovery { world.processor.recovery }

  /// Makes the processor act out `fault` from now on (nil: behave).
  public func setProcessorFault(_ fault: LocalProcessor.Fault?) { world.processor.fault = fault }
}
