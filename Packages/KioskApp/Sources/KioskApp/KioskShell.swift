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
  @ObservationIgnored public internal(set) var reconciled: [IntentReconciliation] = []
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
}
