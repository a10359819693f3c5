import CanonicalJSON
import Journal
import KioskCommands
import Menu
import Observation
import Payment
import Stock
import Tabs

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The one owner of the world: recovers it from the journal, runs each command
/// with a checkpoint, journals it durably before acknowledging it, rolls back
/// on any error, keeps the undo history, and tells observers when state changed.
///
/// Money moves intent first (docs/journal.md): a `paymentIntent` record with
/// its idempotency key is synced before the processor is called, and the
/// outcome is journaled after; opening the kiosk, and every command while one
/// is open, first reconciles the intents that have no outcome by asking the
/// processor about their keys.
///
/// The world never leaves the main actor, so it needs no locks and no
/// `Sendable` conformance. Observation tracks `revision`; the world itself is
/// `~Copyable` and ignored by the macro.
@MainActor @Observable
public final class KioskShell {
  @ObservationIgnored var world: KioskWorld
  @ObservationIgnored var history: UndoHistory
  /// The day's settled tabs beside the journal (`SettledTabsFile`): an entry
  /// appended after each settle and each undo of one is journaled.
  @ObservationIgnored var settledTabs: DerivedLog
  /// Whether opening found the settled-tabs file not holding what the last
  /// checkpoint says and wrote it again from the whole day (format 2, a
  /// damaged or missing file); a checkpoint is then written at once.
  @ObservationIgnored public private(set) var rebuiltSettledTabs = false
  /// Where the live day's movements begin in the processor's ledger
  /// (`KioskCheckpoint.ledgerStart`); every checkpoint of the day repeats it.
  @ObservationIgnored var ledgerStart: JournalAnchor?
  /// The records journaled since the last checkpoint, oldest first (a
  /// checkpoint holds everything before it; `history` and `verify` read the file).
  @ObservationIgnored public internal(set) var records: [KioskRecord]
  /// Intents journaled without an outcome yet, oldest first.
  @ObservationIgnored public internal(set) var openIntents: [PaymentIntent]
  /// What reconciliation resolved since the shell opened, oldest first.
  @ObservationIgnored public private(set) var reconciled: [Reconciliation] = []
  /// How many of `reconciled` came before the command now running: those
  /// after were resolved on its way in (when the till opened, or before it ran).
  @ObservationIgnored var reconciledBeforeCommand = 0
  /// The processor's movements settles and undos took as their outcomes since
  /// the shell opened, instead of moving money again, oldest first.
  @ObservationIgnored public internal(set) var adoptions: [Adoption] = []
  /// Test seam: runs at each step of a payment; a throw there stands for a
  /// crash at that step (the test then drops the shell and reopens).
  @ObservationIgnored public var paymentStepHook: ((PaymentStep) throws -> Void)?
  /// Test seam: runs at each step of closing a day, like `paymentStepHook`.
  @ObservationIgnored public var closeDayStepHook: ((CloseDayStep) throws -> Void)?
  /// A checkpoint is written before a command once this many records follow
  /// the last one, and at least as many bytes of them as the checkpoint had:
  /// replay on open stays short, and checkpoints cost at most about as much
  /// again as the records they follow, whatever the state's size.
  @ObservationIgnored public var checkpointInterval = KioskShell.defaultCheckpointInterval
  /// Whether any payment was ever journaled here (the ledger must then exist).
  @ObservationIgnored var paymentsJournaled: Bool
  /// The till's name in its chain, kept in the journal (`nameTill`); nil until it has one.
  @ObservationIgnored public internal(set) var tillName: String?
  /// The day whose close, cut short by a crash, this shell finished when it opened.
  @ObservationIgnored public internal(set) var finishedInterruptedClose: Int?
  /// The ledger numbers this shell retired when it opened because the journal
  /// names them and the ledger had not given them (a ledger restored from an older copy).
  @ObservationIgnored public private(set) var ledgerCaughtUp: ClosedRange<Int>?
  /// The ledger's lost numbers when the journal was last found to name none of
  /// them (`refuseWhileLedgerLacksKnownEntries`): not read for again until they change.
  @ObservationIgnored var lostNumbersTheJournalDoesNotName: [Int]?
  /// What off-actor effects run on (`startSettle`): the clock, jitter, retry policy and network.
  @ObservationIgnored public var effects: EffectEnvironment
  /// The payments in flight, by their intent's key.
  @ObservationIgnored var inFlight: [IdempotencyKey: PaymentInFlight] = [:]
  /// What each finished effect fed back, by key.
  @ObservationIgnored var finished: [IdempotencyKey: EffectOutcome] = [:]
  /// What effects fed back, oldest first.
  @ObservationIgnored public internal(set) var fedBack: [EffectOutcome] = []
  /// Set by `teardown()`: the shell refuses every write.
  @ObservationIgnored var isTornDown = false

  /// Records between checkpoints, at least.
  public static let defaultCheckpointInterval = 1_000

  /// Bumped after every change to the world; observe it to redraw.
  public private(set) var revision = 0

  /// Tells observers the world changed.
  func didChange() { revision += 1 }

  /// The day the live journal covers, from 1; `closeDay` starts the next.
  public internal(set) var day: Int

  /// Bytes of a torn tail the journal dropped when it was opened.
  public let droppedBytes: Int

  /// Opens the kiosk on `journal` and `processor`: restores its last
  /// checkpoint and replays the records after it, or, for a new journal,
  /// journals `menu` and `stock` as the first record (evaluated only then); finishes a close of the
  /// day that was cut short; then reconciles any open intent with the processor.
  public convenience init(
    journal: consuming DurableJournal, processor: consuming LocalProcessor,
    menu: @autoclosure () -> MenuState = KioskDefaults.menu,
    stock: @autoclosure () -> StockState = KioskDefaults.stock,
    effects: EffectEnvironment = .live
  ) throws {
    let contents = try KioskReplay.contents(of: journal.recovery)
    try self.init(
      journal: journal, contents: contents, processor: processor, menu: menu(), stock: stock(), effects: effects)
  }

  /// Opens the kiosk on `journal` with the processor's ledger at
  /// `ledgerPath`, read from where the live day's movements begin
  /// (`KioskCheckpoint.ledgerStart`): a day's writer reads the day's
  /// movements, not every day's. Otherwise as `init(journal:processor:…)`.
  public convenience init(
    journal: consuming DurableJournal, ledgerPath: String, lockWait: Duration = DurableJournal.defaultLockWait,
    fault: LocalProcessor.Fault? = nil, menu: @autoclosure () -> MenuState = KioskDefaults.menu,
    stock: @autoclosure () -> StockState = KioskDefaults.stock,
    effects: EffectEnvironment = .live
  ) throws {
    let contents = try KioskReplay.contents(of: journal.recovery)
    let processor: LocalProcessor
    do {
      processor = try LocalProcessor(
        path: ledgerPath, lockWait: lockWait, fault: fault, from: contents.checkpoint?.ledgerStart)
    } catch {
      throw KioskShellError.ledgerUnreadable(error)
    }
    try self.init(
      journal: journal, contents: contents, processor: processor, menu: menu(), stock: stock(), effects: effects)
  }

  /// A refused open leaves a journal (or a ledger) with nothing in it as it
  /// found it: removed when the open created it, empty again when it was an
  /// empty file the open gave a header (a torn header's bytes are kept beside
  /// it, as every torn tail's are). A refused command changes no file.
  private static func leaveAsFound(_ path: String, _ recovery: JournalRecovery) {
    if recovery.created {
      try? FileManager.default.removeItem(atPath: path)
    } else if recovery.startedFresh, recovery.droppedBytes == 0 {
      truncate(path, 0)
    }
  }

  private init(
    journal: consuming DurableJournal, contents: JournalContents, processor: consuming LocalProcessor,
    menu: @autoclosure () -> MenuState, stock: @autoclosure () -> StockState, effects: EffectEnvironment
  ) throws {
    self.effects = effects
    droppedBytes = journal.recovery.droppedBytes
    var contents = contents
    ledgerStart = contents.checkpoint?.ledgerStart
    let isNew = contents.checkpoint == nil && contents.records.isEmpty
    let name = URL(fileURLWithPath: journal.path).lastPathComponent
    if case .dayClosed(let day, let archive) = contents.records.last, archive == name {
      throw KioskShellError.closedDay(day: day, path: journal.path)
    }
    // A day already closed and archived beside the journal (a backup restored
    // over the live journal, or a live journal deleted) must not be written
    // again: its tabs' charges are under its own keys, which the next day's
    // settles never find, so a tab settled since would be charged twice. A
    // close cut short leaves the day's file under both names: that one is finished below.
    // A file with an archive's name that is no journal (notes, say) is not a closed day.
    let newest = KioskSegments.archives(of: journal.path).last(where: { KioskSegments.salt(of: $0.path) != nil })
    if let newest, let archivedDay = newest.day, archivedDay >= contents.day,
      !KioskSegments.sameFile(newest.path, journal.path)
    {
      if isNew { Self.leaveAsFound(journal.path, journal.recovery) }
      Self.leaveAsFound(processor.path, processor.recovery)
      throw KioskShellError.dayAlreadyArchived(day: contents.day, path: journal.path, archive: newest.path)
    }
    // The journal and the ledger must be a pair: a journal with payments beside a
    // new ledger, or a new journal beside a ledger with movements, would make
    // reconciliation abandon real charges.
    if processor.recovery.startedFresh, contents.paymentsJournaled {
      // Leave no empty ledger behind, or the next run would take it for the real one.
      try? FileManager.default.removeItem(atPath: processor.path)
      throw KioskShellError.ledgerMissing(path: processor.path)
    }
    // A journal cut back to nothing by repair keeps its header, so its salt:
    // movements under that salt are this till's own, and settles adopt them.
    let ownKeys = IdempotencyKey.prefix(journalSalt: journal.salt)
    if isNew, !processor.entries.isEmpty, !processor.entries.contains(where: { $0.key.raw.hasPrefix(ownKeys) }) {
      Self.leaveAsFound(journal.path, journal.recovery)
      throw KioskShellError.ledgerOfAnotherJournal(path: processor.path, movements: processor.entries.count)
    }
    // Nor another till's ledger beside a journal with payments: the day began
    // at a place in one ledger file (its salt).
    // (A till that never took money may start a new ledger.)
    if let start = contents.checkpoint?.ledgerStart, start.salt != processor.endAnchor.salt,
      contents.paymentsJournaled || !processor.recovery.startedFresh
    {
      throw KioskShellError.ledgerNotTheDays(path: processor.path)
    }
    // Every movement since the day began is under the day's keys: one writer
    // at a time moves money, the live day's. A movement under other keys after
    // the day began means the ledger has moved on without this journal: it is
    // older than the ledger (a backup of a day the till has closed since, or
    // the day's archive put back as the live journal, which looks like a close
    // cut short) and a carried-over tab settled since would be charged again;
    // or the ledger is another till's. The archives need not be there to tell.
    // Only the day's own movements are looked at: all on a first day, from the
    // day's start on a later one, when the ledger could be read from there.
    let readFromDayStart =
      if let start = contents.checkpoint?.ledgerStart {
        processor.recovery.firstSequence == start.sequence
      } else {
        contents.day == 1
      }
    if readFromDayStart {
      let foreign = processor.entries.count { !$0.key.raw.hasPrefix(ownKeys) }
      if foreign > 0 {
        if isNew { Self.leaveAsFound(journal.path, journal.recovery) }
        throw KioskShellError.ledgerMovedOn(path: processor.path, journal: journal.path, movements: foreign)
      }
    }
    // A crash between a close's rename and its `chmod` leaves the day's
    // archive writable: the writer, once nothing refused it, makes it
    // read-only, as the close would have.
    if let newest, !newest.setAside, !KioskSegments.sameFile(newest.path, journal.path) {
      KioskSegments.makeReadOnly(newest.path)
    }
    var world = KioskWorld(processor: processor, journal: journal)
    // A ledger that has given fewer numbers than the journal names was restored
    // from an older copy (or lost its tail): the numbers between are retired,
    // so no reference is given to a second movement; repair writes back the
    // entries the journal holds.
    let named = max(
      contents.checkpoint?.ledgerNumbersUsed ?? 0,
      LostLedgerEntries.highestNumber(namedBy: contents.records, in: world.processor.ledger))
    ledgerCaughtUp = try world.processor.retire(through: named)
    if isNew {
      // Built only here: a journal that holds a menu never builds the default one.
      let first = KioskRecord.initialized(menu: menu(), stock: stock())
      try world.journal.append(first)
      contents.records = [first]
    }
    let progress = try KioskReplay.replay(contents, into: &world, collectingSettledTabs: true)
    let journalPath = world.journal.path
    // A day whose file cannot be replayed from its first record (damage
    // before the checkpoint, which opening does not read) still opens: its
    // settled-tabs file is left behind, and no checkpoint vouches for it.
    var rebuilt = false
    var rebuildFailed = false
    var settled = SettledTabsFile.openForWriting(
      journal: journalPath, salt: world.journal.salt, checkpoint: contents.checkpoint,
      tail: progress.settledTabs ?? [], rebuilt: &rebuilt
    ) {
      guard let entries = try? SettledTabsFile.replayedEntries(ofDay: journalPath) else {
        rebuildFailed = true
        return []
      }
      return entries
    }
    if rebuildFailed { settled.abandon() }
    settledTabs = settled
    rebuiltSettledTabs = rebuilt && !rebuildFailed
    history = progress.history
    tillName = progress.till
    openIntents = contents.openIntents
    paymentsJournaled = contents.paymentsJournaled
    day = contents.day
    var records = contents.records
    // The decoded list is exactly full: without headroom the session's first
    // command would copy every record since the checkpoint into a larger buffer.
    records.reserveCapacity(records.count + records.count / 2 + 64)
    self.records = records
    self.world = world
    if let closed = progress.closedDay {
      try finishClosingDay(closed.day, archive: closed.archive)
    } else if rebuiltSettledTabs {
      // So that the next writer keeps the file instead of rebuilding it too.
      try writeCheckpoint()
    }
    try reconcileOpenIntents()
  }

  /// Opens the kiosk with the processor ledger beside the journal
  /// (`<journal>.processor`), read from where the live day began.
  public convenience init(journal: consuming DurableJournal) throws {
    let ledgerPath = LocalProcessor.defaultPath(besideJournal: journal.path)
    try self.init(journal: journal, ledgerPath: ledgerPath)
  }

  // MARK: Checkpoints

  /// Writes a checkpoint when one is due (see `checkpointInterval`).
  func checkpointIfDue() throws {
    let last = world.journal.lastCheckpoint
    guard world.journal.lastSequence - (last?.sequence ?? 0) >= UInt64(checkpointInterval) else { return }
    if let last, world.journal.size - last.end < last.size { return }
    try writeCheckpoint()
  }

  /// Journals a checkpoint of the whole state, the undo history and the open
  /// intents; the records before it need never be replayed again.
  public func writeCheckpoint() throws {
    let checkpoint = KioskCheckpoint(
      day: day, state: world.snapshot, undo: history.entries, openIntents: openIntents,
      paymentsJournaled: paymentsJournaled, ledgerNumbersUsed: world.processor.ledger.numbersUsed,
      settledTabs: settledTabs.synchronized(), ledgerStart: ledgerStart, till: tillName)
    try world.journal.appendCheckpoint(checkpoint)
    records.removeAll(keepingCapacity: true)
  }

  // MARK: Running commands

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
    revision += 1
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
    revision += 1
  }

  // MARK: Reconciliation

  /// Resolves every open intent by asking the processor what happened to its
  /// key, and journals the answer: a charge that went through completes its
  /// settle, a refund that went through completes its undo, and a key the
  /// processor does not know is abandoned. Throws when the processor cannot
  /// answer: the intent stays open and the command that asked is refused.
  public func reconcileOpenIntents() throws {
    // A charge in flight has an open intent that is not lost: its effect will answer.
    while let intent = openIntents.first(where: { inFlight[$0.key] == nil }) {
      let status: PaymentStatus
      do { status = try world.payment.status(of: intent.key) } catch { throw KioskError.payment(error) }
      switch (intent.kind, status) {
      case (.charge, .charged(let reference, let amount))
      where amount != intent.amount || world.processor.ledger.refund(ofCharge: reference) != nil:
        // A charge of another amount, or one refunded since: not this tab's
        // payment, so the tab stays open, as a fresh intent's used key would.
        try abandon(intent, keyUsedFor: reference)
      case (.charge, .charged(let reference, _)):
        let settlement = try world.settlement(for: intent.tab)
        _ = try commit { world in world.applyCharge(settlement, reference: reference, key: intent.key) }
        reconciled.append(Reconciliation(intent: intent, resolution: .completed(reference: reference)))
      case (.refund, .refunded(let reference, let charge, let amount))
      where charge != intent.charge || amount != intent.amount:
        // A refund of another charge or amount: the tab stays settled.
        try abandon(intent, keyUsedFor: reference)
      case (.refund, .refunded(let reference, _, _)):
        let undone = history.last?.record
        try completeUndo(refund: reference, key: intent.key)
        reconciled.append(
          Reconciliation(intent: intent, resolution: .completed(reference: reference), undone: undone))
      case (_, .unknown):
        try journal(.paymentAbandoned(key: intent.key, reason: "the processor has no record of the key"))
        reconciled.append(Reconciliation(intent: intent, resolution: .abandoned))
      case (.charge, .refunded(let reference, _, _)), (.refund, .charged(let reference, _)):
        // A movement of the other kind.
        try abandon(intent, keyUsedFor: reference)
      }
    }
  }

  /// Abandons `intent`, whose key had moved `reference` before it: a journal
  /// cut back (a restored backup) reuses keys, and a crash came before the
  /// used key was abandoned as a fresh intent's is. Nothing moved for it.
  private func abandon(_ intent: PaymentIntent, keyUsedFor reference: String) throws {
    try journal(
      .paymentAbandoned(
        key: intent.key,
        reason: "the processor already used this key for \(reference), not this intent's payment; not reused"))
    reconciled.append(Reconciliation(intent: intent, resolution: .keyUsedBefore(reference: reference)))
  }

  // MARK: Reads

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
    let history = try KioskJournalReader.paymentHistory(of: journalPath)
    let ledger = try KioskView.readLedgerFile(world.processor.path)
    return PaymentAudit(
      ledger: ledger.entries, records: history.records, lostNumbers: ledger.lost,
      setAsideSalts: KioskSegments.setAsideSalts(of: journalPath, ledger: ledger.entries),
      closedByCheckpoint: history.closedByCheckpoint)
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

/// A step of a payment, where `KioskShell.paymentStepHook` runs: the seams
/// of the one path `kiosk settle` and `kiosk undo` take.
public enum PaymentStep: Sendable, Equatable {
  /// The intent is durable; the processor has not been called.
  case afterIntent
  /// The processor moved the money; its outcome is not journaled yet.
  case afterEffect
  /// The outcome is durable; the command is not acknowledged yet.
  case afterOutcome
}

/// What reconciliation did with one open intent.
public struct Reconciliation: Equatable, Sendable {
  /// The intent.
  public var intent: PaymentIntent
  /// What became of it.
  public var resolution: Resolution
  /// For a refund completed: the record its undo reverted (the settle).
  public var undone: KioskRecord?

  /// A resolution of `intent`.
  public init(intent: PaymentIntent, resolution: Resolution, undone: KioskRecord? = nil) {
    self.intent = intent
    self.resolution = resolution
    self.undone = undone
  }

  /// How an intent was resolved.
  public enum Resolution: Equatable, Sendable {
    /// The processor had moved the money: the settle or undo was completed with its reference.
    case completed(reference: String)
    /// The processor had no record of the key: nothing moved, and the intent was closed.
    case abandoned
    /// The key had moved money before this intent (`reference`: a charge
    /// refunded since or of another amount, or a movement of the other kind; a
    /// journal cut back reuses keys): not this intent's payment, so nothing
    /// moved for it, and the intent was closed.
    case keyUsedBefore(reference: String)
  }
}

/// Errors of the shell itself.
public enum KioskShellError: Error, Equatable, CustomStringConvertible {
  /// A thousand candidate keys in a row were already used at the processor.
  case noFreshKey
  /// The processor moved the money under `key`, but its outcome could not be journaled.
  case outcomeNotJournaled(key: IdempotencyKey, reason: String)
  /// The journal records payments, but the processor's ledger was just created: it is missing.
  case ledgerMissing(path: String)
  /// The journal is new, but the processor's ledger already holds movements, none of them under its keys.
  case ledgerOfAnotherJournal(path: String, movements: Int)
  /// The journal is a closed day's archive, not the live journal.
  case closedDay(day: Int, path: String)
  /// A file already has the archive's name and is not this day's journal.
  case archiveExists(path: String)
  /// The day's file could not be given its archive name.
  case cannotArchive(path: String, reason: String)
  /// A charge of the tab is in flight: the command waits for its outcome.
  case paymentInFlight(tab: Tab.ID)
  /// No attempt of the charge under `key` got an answer before the deadline.
  case unresolved(key: IdempotencyKey, attempts: Int)
  /// The shell was torn down: it takes no more commands.
  case tornDown
  /// The processor declined under `key`, but the abandonment could not be journaled.
  case declineNotJournaled(key: IdempotencyKey, reason: String)
  /// The processor holds a charge of `tab` this journal has no record of, of another amount than its total.
  case heldChargeDiffers(tab: Tab.ID, reference: String, charged: Decimal, total: Decimal)
  /// The ledger lost entries to damage that the journal names: the day's money cannot be closed.
  case ledgerLostMovements(path: String, mismatches: Int)
  /// The ledger lacks entries the journal holds the processor's answers for: no money moves until they are back.
  case ledgerLacksKnownEntries(path: String, numbers: [Int])
  /// The processor holds a charge of a tab the journal has open: closing would carry it over unsettled.
  case heldChargeOfOpenTab(tab: Tab.ID, reference: String, amount: Decimal)
  /// The processor's ledger could not be opened.
  case ledgerUnreadable(JournalError)
  /// The journal holds a day that is already closed and archived beside it.
  case dayAlreadyArchived(day: Int, path: String, archive: String)
  /// The processor's ledger is another file than the one the live day began with.
  case ledgerNotTheDays(path: String)
  /// The ledger holds `movements` under other keys since the journal's day
  /// began: the journal is older than the ledger, or the ledger another till's.
  case ledgerMovedOn(path: String, journal: String, movements: Int)
  /// A record holds an amount the journal's format cannot hold: nothing was written.
  case amountNotJournalable(amount: Decimal, version: UInt16)
  /// A till's name must be 1 to 64 of `A-Z a-z 0-9 . _ -`.
  case invalidTillName(String)

  public var description: String {
    switch self {
    case .invalidTillName(let name):
      "a till's name is 1 to 64 of A-Z a-z 0-9 . _ -, not \(name.debugDescription)"
    case .amountNotJournalable(let amount, let version) where exactMinorUnits(of: amount) == nil:
      "the amount \(exactMoney(amount)) cannot be journaled: a journal of version \(version) holds money in whole "
        + "cents; nothing was written (after 'kiosk close-day' the next day is of version 2, which holds it)"
    case .amountNotJournalable(let amount, let version):
      "the amount \(exactMoney(amount)) cannot be journaled: a journal of version \(version) holds money in whole "
        + "cents below \(money(minorUnits: CanonicalMoney.limit)); nothing was written"
    case .ledgerUnreadable(let error): "processor ledger: \(error)"
    case .dayAlreadyArchived(let day, let path, let archive):
      "'\(path)' holds day \(day), but day \(day) is already closed and archived as '\(archive)' (a backup restored "
        + "over the live journal?); writing it again could charge its tabs twice: restore the newest live journal"
    case .ledgerNotTheDays(let path):
      "the processor ledger '\(path)' is not the file the live day began with (another till's, or a new file with "
        + "the old name); restore this till's ledger, or pass --processor with its path"
    case .ledgerMovedOn(let path, let journal, let movements):
      "the processor ledger '\(path)' holds \(movements) movement\(movements == 1 ? "" : "s") under another "
        + "journal's keys since '\(journal)' began its day: the journal is older than the ledger (a backup restored "
        + "over a later day, or an archive put back as the live journal?) or the ledger is another till's; writing "
        + "could charge tabs twice: restore the newest live journal, or this till's ledger"
    case .ledgerMissing(let path):
      "the journal records payments but the processor ledger '\(path)' was missing or empty (or its header torn); "
        + "restore it from a backup, or pass --processor with its path"
    case .ledgerOfAnotherJournal(let path, let movements):
      "the journal is new (or was cut back to nothing) but the processor ledger '\(path)' holds \(movements) "
        + "movements; restore the journal that made them, or, for a new till, pass --processor with a new path"
    case .outcomeNotJournaled(let key, let reason):
      "\(reason); the payment under key '\(key)' went through and is pending: "
        + "the next command that writes reconciles it"
    case .noFreshKey:
      "no unused payment key found after a thousand tries; the processor ledger belongs to another journal"
    case .closedDay(let day, let path):
      "'\(path)' is the archive of day \(day), closed and read-only; open the live journal"
    case .cannotArchive(let path, let reason): "cannot archive the day as '\(path)': \(reason)"
    case .paymentInFlight(let tab):
      "a payment for tab #\(tab.raw) is in flight; wait for its outcome before changing it or undoing"
    case .unresolved(let key, let attempts):
      "the payment processor did not answer in time (\(attempts) attempt\(attempts == 1 ? "" : "s") under key '\(key)'); "
        + "the payment is unresolved until reconciled: the next command that writes asks the processor"
    case .tornDown: "the till was shut down; start it again"
    case .declineNotJournaled(let key, let reason):
      "\(reason); the processor declined the payment under key '\(key)' and nothing moved, but the decline is "
        + "not journaled: the next command that writes reconciles it"
    case .heldChargeDiffers(let tab, let reference, let charged, let total):
      "the processor already holds a charge of \(money(charged)) for tab #\(tab.raw) (\(reference)) that this journal "
        + "has no record of (it was restored or cut back); the tab now totals \(money(total)), so the charge is not "
        + "adopted and nothing is charged: bring the tab back to \(money(charged)) and settle it (the charge is then adopted), or have "
        + "\(reference) refunded at the processor first; 'kiosk reconcile' lists it"
    case .archiveExists(let path):
      "cannot archive the day as '\(path)': another file has that name; move it away and run the command again"
    case .ledgerLacksKnownEntries(let path, let numbers):
      "the processor ledger '\(path)' lacks \(numbers.count == 1 ? "entry" : "entries") "
        + "\(numbers.map(String.init).joined(separator: ", ")), which the journal holds the processor's answer for "
        + "(damaged, or restored from an older copy); no money moves until 'kiosk repair' writes "
        + "\(numbers.count == 1 ? "it" : "them") back"
    case .heldChargeOfOpenTab(let tab, let reference, let amount):
      "not closing the day: the processor holds charge \(reference) of \(money(amount)) for tab #\(tab.raw), which "
        + "the journal has open (its settle was lost: a restored or damaged journal); put the tab's items back if "
        + "they are gone (the charge is \(money(amount))) and run 'kiosk settle \(tab.raw)', which adopts the charge, "
        + "then close the day"
    case .ledgerLostMovements(let path, let mismatches):
      "not closing the day: the processor ledger '\(path)' lost entries to damage that the journal names "
        + "(\(mismatches) mismatches, listed by 'kiosk reconcile'); run 'kiosk repair', which writes back every "
        + "entry the journal holds the processor's answer for, then close the day"
    }
  }
}
