import Clock
import DurableStore
import Journal
import JournalIO
import KioskCommands
import Payment
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

/// Why the till did not do what it was sent, in its own words: a step it
/// refused, or a payment given up for a reason that is no decline.
public struct TillRefusal: Error, Equatable, Sendable, CustomStringConvertible {
  /// The reason.
  public let description: String
}

extension DurableStore where Model == KioskTill {
  /// Opens the till on the journal at `path` with the processor's ledger at
  /// `ledger` (beside the journal by default), read from where the day's
  /// movements begin. Refuses, before anything is
  /// written:
  /// - a closed day's archive opened as the journal (`closedDay`), and a
  ///   journal whose day, or a later one, is already archived beside it
  ///   (`dayAlreadyArchived`: a backup restored over the live journal, whose
  ///   carried-over tabs' charges are under the archive's keys);
  /// - a journal and a ledger that are not a pair: a journal that holds
  ///   payments beside a ledger that had to be created (lost, or moved away:
  ///   reconciling against it would give up real charges; the empty ledger
  ///   is removed, `ledgerMissing`); a day that began in another ledger file
  ///   (`ledgerNotTheDays`); a new journal beside a ledger with movements,
  ///   none of them its own (`ledgerOfAnotherJournal`); and a day whose
  ///   movements include some under another journal's keys (`ledgerMovedOn`:
  ///   the journal is older than the ledger, or the ledger another till's,
  ///   and a tab settled since could be charged twice).
  ///
  /// A ledger that has given fewer numbers than the journal names (restored
  /// from an older copy) has the numbers between retired, never given again
  /// (`SharedProcessor.retiredOnOpen`). The day's settled-tabs file is kept
  /// up to where the last checkpoint vouches for it, or written again from
  /// the day's journal (and a checkpoint then vouches for it).
  public static func openTill(
    at path: String, ledger: String? = nil, fault: ProcessorFault? = nil, clock: any KioskClock = SystemClock(),
    options: DurableStoreOptions = DurableStoreOptions(), line: ProcessorLine = ProcessorLine()
  ) throws -> DurableStore<KioskTill> {
    // A till that opens can always close its day: its files fit beside it.
    try refuseNameWithoutRoom(at: path, keeping: TillFiles.suffixesBesideJournal)
    let ledgerPath = ledger ?? LocalProcessor.defaultPath(besideJournal: path)
    // The journal's lock first: a till held by another writer is reported as
    // such, not as its ledger's lock.
    try DurableJournal.waitForLock(path: path, lockWait: options.lockWait)
    // An empty file is a journal not begun yet, as a missing one is. Read as
    // the kiosk reads it: a day that cannot be opened is refused in its words.
    let exists = try TillFiles.journalHasBytes(at: path)
    let day = try exists ? DayOnDisk(try DurableJournal.read(path: path)) : nil
    try refuseArchived(day, at: path)
    let start = day?.contents.checkpoint?.ledgerStart
    var processor: LocalProcessor
    do {
      processor = try LocalProcessor(path: ledgerPath, lockWait: options.lockWait, fault: fault, from: start)
    } catch { throw TillError.ledgerUnreadable(error) }
    let paymentsJournaled = day?.contents.paymentsJournaled == true
    if processor.recovery.startedFresh, paymentsJournaled {
      _ = consume processor
      try? FileManager.default.removeItem(atPath: ledgerPath)
      throw TillError.ledgerMissing(path: ledgerPath)
    }
    if let start, start.salt != processor.endAnchor.salt, paymentsJournaled || !processor.recovery.startedFresh {
      throw TillError.ledgerNotTheDays(path: ledgerPath)
    }
    let movements = processor.entries
    if !movements.isEmpty {
      // A journal that does not exist yet gets a salt no movement can be under.
      let own = day.map { IdempotencyKey.prefix(journalSalt: $0.salt) }
      let foreign = own.map { own in movements.count { !$0.key.raw.hasPrefix(own) } } ?? movements.count
      if day?.initialized != true, foreign == movements.count {
        throw TillError.ledgerOfAnotherJournal(path: ledgerPath, movements: movements.count)
      }
      // Only the day's own movements tell: all of them on a first day, those
      // from the day's start on a later one, when the ledger was read from there.
      let readFromDayStart =
        if let start { processor.recovery.firstSequence == start.sequence } else { (day?.contents.day ?? 1) == 1 }
      if readFromDayStart, foreign > 0 {
        throw TillError.ledgerMovedOn(path: ledgerPath, journal: path, movements: foreign)
      }
    }
    // A ledger that has given fewer numbers than the journal names was
    // restored from an older copy: the numbers between are retired.
    let named = max(
      day?.contents.checkpoint?.ledgerNumbersUsed ?? 0,
      day.map { LostLedgerEntries.highestNumber(namedBy: $0.contents.records, in: processor.ledger) } ?? 0)
    let retired = try processor.retire(through: named)
    let settledTabs = SettledTabsWriter()
    let store = try open(
      at: path, initial: KioskTill.State(),
      environment: KioskTill.Services(
        processor: SharedProcessor(processor, retiredOnOpen: retired), clock: clock, settledTabs: settledTabs,
        line: line),
      clock: TillClock(clock), options: options)
    let rebuilt = settledTabs.open(
      journal: path, salt: store.salt, keeping: store.state.kept.settledTabs,
      pending: store.state.settledSinceCheckpoint.count
    ) { try SettledTabsFile.replayedEntries(ofDay: path) }
    // So that the next writer keeps the file instead of writing it again too.
    if rebuilt { try store.checkpoint() }
    return store
  }

  /// Refuses a closed day's archive opened as the journal at `path`, and a
  /// journal whose day, or a later one, an archive beside it holds (not the
  /// journal itself: a close cut short gives the day's file both names).
  /// A file with an archive's name that is no journal (notes, say) is no closed day.
  private static func refuseArchived(_ day: DayOnDisk?, at path: String) throws {
    let number = day?.contents.day ?? 1
    if case .dayClosed(let closed, let archive)? = day?.contents.records.last,
      archive == PathNames.lastComponent(of: path)
    {
      throw TillError.closedDay(day: closed, path: path)
    }
    let newest = KioskSegments.archives(of: path).last { KioskSegments.salt(of: $0.path) != nil }
    if let newest, let archived = newest.day, archived >= number, !KioskSegments.sameFile(newest.path, path) {
      throw TillError.dayAlreadyArchived(day: number, path: path, archive: newest.path)
    }
  }

  /// The day's settled tabs, as `board --all` lists them: the settled-tabs
  /// file up to where the last checkpoint vouched for it, then what the
  /// records since made; replayed from the day's journal when no checkpoint
  /// vouches for the file, or it does not hold what one says.
  public func settledListing() throws -> SettledListing {
    let counted = state.slices.tabs.settled
    if let mark = state.kept.settledTabs,
      let entries = SettledTabsFile.entries(besideJournal: path, salt: salt, through: mark)
    {
      return SettledListing(entries + state.settledSinceCheckpoint, counted: counted)
    }
    return SettledListing(try SettledTabsFile.replayedEntries(ofDay: path), counted: counted)
  }

  /// Settles `tab` and waits for the processor: the receipt, or why there
  /// is none. The app's part of a settle, around the till's step: no money
  /// moves while the ledger lacks
  /// entries the journal names; a charge the processor already holds for
  /// the tab under this journal's key (a journal cut back lost it) is
  /// adopted, not made again, and one of another amount is refused; and a
  /// key the processor used before is given up and the settle asked again
  /// under the next one.
  ///
  /// Throws the domain's refusal (`KioskError`), a decline
  /// (`KioskError.payment`), or, when no outcome could be journaled (the
  /// store stopped or failed), its error: the intent then stays open, and
  /// the next store on the journal asks the processor about it.
  public func settle(_ tab: Tab.ID) async throws -> Receipt { try await settleAdopting(tab).receipt }

  /// Settles `tab` as `settle(_:)` does, and says which charge the processor
  /// already held it adopted (nil when it charged).
  public func settleAdopting(_ tab: Tab.ID) async throws -> (receipt: Receipt, adopted: LocalProcessor.Entry?) {
    try refuseWhileLedgerLacksKnownEntries()
    let held = try heldCharge(settling: tab)
    let made = try await pay(
      held.map { .command(.settle(tab: tab, key: $0.key)) } ?? .settle(tab), adopting: held != nil)
    guard case .settled(let receipt)? = made.record else { preconditionFailure("a charge made feeds back its receipt") }
    return (receipt, held)
  }

  /// Undoes the newest command on the undo history, as `kiosk undo` does,
  /// and says what was undone; nil when there is nothing to undo. A
  /// settle is undone by a refund: its intent first, the refund off the main
  /// actor, and the tab reopened (its stock back) only when the refund went
  /// through; a declined refund leaves it settled. A refund the processor
  /// already made of the charge (a journal restored from a copy lost it) is
  /// adopted, not made again; a key used before is given up and the undo
  /// asked again under the next one. Throws as `settle(_:)` does.
  public func undoNewest() async throws -> Undone? { try await undoNewestAdopting().undone }

  /// Undoes the newest command as `undoNewest()` does, and says which refund
  /// the processor already held it adopted (nil when it refunded, or moved no money).
  public func undoNewestAdopting() async throws -> (undone: Undone?, adopted: LocalProcessor.Entry?) {
    guard let newest = state.history.last else { return (nil, nil) }
    guard case .refund(_, let receipt) = state.history.plan else {
      let sent = try send(.undo)
      guard sent.outcome.record != nil else { throw Self.refusal(sent.outcome) }
      return (Undone(record: newest.record, refund: nil), nil)
    }
    try refuseWhileLedgerLacksKnownEntries()
    let held = environment.processor.ledger.refund(ofCharge: receipt.reference)
    let made = try await pay(held.map { .command(.undo(key: $0.key)) } ?? .undo, adopting: held != nil)
    guard case .undone(let refund?, _)? = made.record else { preconditionFailure("a refund made feeds back the undo") }
    return (Undone(record: newest.record, refund: refund), held)
  }

  /// Sends `action`, a payment's step, and waits for its outcome: what the
  /// processor's answer did. A key the processor used before is given up and
  /// the step sent again, under the next key, unless it is `adopting` a
  /// movement the processor holds (whose key it names). Throws the step's
  /// refusal, a decline, or why no outcome was journaled.
  private func pay(_ action: KioskTill.Action, adopting: Bool) async throws -> KioskTill.Outcome {
    for _ in 0..<1_000 {
      let sent = try send(action).outcome
      guard let payment = sent.payment, let intent = openIntents.last, intent.request == payment else {
        throw Self.refusal(sent)
      }
      guard let closed = await outcome(of: intent.key) else { throw notClosed() }
      if let unanswered = closed.unanswered { throw leftOpen(IdempotencyKey(intent.key.text), unanswered) }
      if let abandoned = closed.abandoned {
        if !adopting, KioskTill.isKeyUsedBefore(abandoned) { continue }
        throw Self.failure(abandoned)
      }
      guard let made = closed.outcome else { preconditionFailure("a payment made feeds back its step") }
      return made
    }
    throw TillError.noFreshKey
  }

  /// A payment the processor answered nothing about, left open (exit 75): the
  /// line forgets it sent it, so the next command asks the ledger directly,
  /// as a till that opens asks.
  func leftOpen(_ key: IdempotencyKey, _ unanswered: Unanswered) -> TillError {
    environment.line.forget(key)
    return .unresolved(key: key, attempts: unanswered.attempts)
  }

  /// A payment given up: a decline as the processor's, any other reason as the till's.
  static func failure(_ abandoned: String) -> any Error {
    if let reason = KioskTill.declineReason(abandoned) { return KioskError.payment(.declined(reason: reason)) }
    return TillRefusal(description: abandoned)
  }

  /// Closes the day as `kiosk close-day` does: into the archive the kiosk
  /// names (`KioskSegments.archiveName`, `<journal>.day-NNNN`) beside the
  /// journal, so the kiosk and its verifier find it (use this, not
  /// `closePeriod(into:)`, whose archive the day's records name as given).
  /// A close asked for again after a crash cut it short, which opening the
  /// store finished, with nothing done since, closes nothing more; it
  /// returns the day that closed. It does not close a day
  /// with a payment in flight (wait for it: `finish()`), nor one whose open
  /// tab the processor holds a charge of (its settle lost to a restored
  /// journal: the next day's keys would not find it, and a settle there would
  /// charge again; settle it today, and the charge is adopted), nor one
  /// whose ledger lost movements the journal does not account for.
  @discardableResult
  public func closeDay() throws -> Int {
    if let finished = closeFinishedOnOpen { return finished.period + 1 }
    if let paying = openIntents.first { throw TillError.paymentInFlight(tab: paying.request.tab) }
    let ledger = environment.processor.ledger
    for tab in state.slices.tabs.open.keys.sorted() {
      if let held = ledger.heldCharge(of: tab, journalSalt: salt) {
        throw TillError.heldChargeOfOpenTab(tab: tab, reference: held.reference, amount: held.amount)
      }
    }
    if !ledger.lostNumbers.isEmpty {
      let audit = try PaymentAudit.of(journal: path, ledger: environment.processor.path)
      guard audit.agrees else {
        throw TillError.ledgerLostMovements(path: environment.processor.path, mismatches: audit.mismatches.count)
      }
    }
    let day = period + 1
    // The day's settled tabs go with its archive whole.
    _ = environment.settledTabs?.bringUpToDate(state.settledSinceCheckpoint)
    try closePeriod(into: KioskSegments.archiveName(of: path, day: day))
    // The day's file went with its archive; the next day's starts empty.
    environment.settledTabs?.open(journal: path, salt: salt, keeping: .empty, pending: 0) { [] }
    return day
  }

  /// The domain's refusal of a step, or the till's reason.
  static func refusal(_ outcome: KioskTill.Outcome) -> any Error {
    if let refusal = outcome.refusal { return refusal.error }
    return TillRefusal(description: outcome.reason ?? "the till did nothing")
  }

  /// Why an intent ended with no outcome journaled.
  func notClosed() -> any Error {
    if let stoppedAt { return DurableStoreError.stopped(at: stoppedAt) }
    if let error = failure ?? lastError { return error }
    return TillError.tornDown
  }

  /// Refuses to move money while the processor's ledger lacks entries the
  /// day's journals hold its answers for (lost to damage): its answers about
  /// their tabs are wrong until `kiosk repair` writes them back.
  func refuseWhileLedgerLacksKnownEntries() throws {
    let numbers = try LostLedgerEntries.knownNumbers(in: environment.processor.ledger, journal: path)
    if !numbers.isEmpty {
      throw TillError.ledgerLacksKnownEntries(path: environment.processor.path, numbers: numbers)
    }
  }

  /// The charge the processor holds for `tab` under this journal's keys,
  /// which no refund gave back: the settle's, adopted. Nil when it holds none.
  func heldCharge(settling tab: Tab.ID) throws -> LocalProcessor.Entry? {
    guard let held = environment.processor.ledger.heldCharge(of: tab, journalSalt: salt) else { return nil }
    let settlement = try state.settlement(for: tab)
    guard held.amount == settlement.total else {
      throw TillError.heldChargeDiffers(
        tab: tab, reference: held.reference, charged: held.amount, total: settlement.total)
    }
    return held
  }
}

extension KioskTill.State {
  /// What settling `tab` would take and charge now.
  func settlement(for tab: Tab.ID) throws(KioskError) -> Settlement {
    var world = ReplayWorld()
    world.restore(slices)
    return try world.settlement(for: tab)
  }
}

/// A journal as the till finds it before opening it: read as the kiosk reads
/// it (`KioskReplay.contents`), from its last checkpoint.
private struct DayOnDisk {
  /// The last checkpoint and the records after it.
  let contents: JournalContents
  /// The journal's salt, which its keys are made from.
  let salt: UInt64

  init(_ recovery: JournalRecovery) throws {
    contents = try KioskReplay.contents(of: recovery)
    salt = recovery.salt
  }

  /// Whether the day has its menu and stock: a checkpoint, or a first record.
  var initialized: Bool { contents.checkpoint != nil || !contents.records.isEmpty }
}
