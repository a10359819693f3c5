import Clock
import DurableStore
import KioskCommands
import Payment
import Tabs

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Why the till did not do what it was sent, in its own words: a step it
/// refused, or a payment given up for a reason that is no decline.
public struct TillRefusal: Error, Equatable, Sendable, CustomStringConvertible {
  /// The reason.
  public let description: String
}

extension DurableStore where Model == KioskTill {
  /// Opens the till on the journal at `path` with the processor's ledger at
  /// `ledger` (beside the journal by default), as the shell opens it, and
  /// refuses, before anything is written, a journal and a ledger that are
  /// not a pair: a journal that holds payments beside a ledger that had to
  /// be created (lost, or moved away: reconciling against it would give up
  /// real charges; the empty ledger is removed, `ledgerMissing`); a new
  /// journal beside a ledger with movements, none of them its own
  /// (`ledgerOfAnotherJournal`); and a first day beside a ledger with
  /// movements under another journal's keys (`ledgerMovedOn`: the journal is
  /// older than the ledger, or the ledger another till's, and a tab settled
  /// since could be charged twice). A later day's journal written by the
  /// store does not say where its movements begin in the ledger, so it is
  /// not checked so (docs/durable-store.md).
  public static func openTill(
    at path: String, ledger: String? = nil, fault: ProcessorFault? = nil, clock: any KioskClock = SystemClock(),
    options: DurableStoreOptions = DurableStoreOptions()
  ) throws -> DurableStore<KioskTill> {
    let ledgerPath = ledger ?? LocalProcessor.defaultPath(besideJournal: path)
    let processor = try LocalProcessor(path: ledgerPath, lockWait: options.lockWait, fault: fault)
    // An empty file is a journal not begun yet, as a missing one is.
    let exists = ((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? Int ?? 0) > 0
    let day = exists ? try DurableStore.read(at: path, initial: KioskTill.State()) : nil
    if processor.recovery.startedFresh, day?.state.paymentsJournaled == true {
      _ = consume processor
      try? FileManager.default.removeItem(atPath: ledgerPath)
      throw KioskShellError.ledgerMissing(path: ledgerPath)
    }
    let movements = processor.entries
    if !movements.isEmpty {
      // A journal that does not exist yet gets a salt no movement can be under.
      let own = day.map { IdempotencyKey.prefix(journalSalt: $0.salt) }
      let foreign = own.map { own in movements.count { !$0.key.raw.hasPrefix(own) } } ?? movements.count
      if day?.state.initialized != true, foreign == movements.count {
        throw KioskShellError.ledgerOfAnotherJournal(path: ledgerPath, movements: movements.count)
      }
      if day?.period == 0, foreign > 0 {
        throw KioskShellError.ledgerMovedOn(path: ledgerPath, journal: path, movements: foreign)
      }
    }
    return try open(
      at: path, initial: KioskTill.State(),
      environment: KioskTill.Services(processor: SharedProcessor(processor), clock: clock), options: options)
  }

  /// Settles `tab` and waits for the processor: the receipt, or why there
  /// is none. The app's part of a settle, around the till's step, as the
  /// shell's `settle` does it: no money moves while the ledger lacks
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
  public func settle(_ tab: Tab.ID) async throws -> Receipt {
    try refuseWhileLedgerLacksKnownEntries()
    let held = try heldChargeKey(settling: tab)
    let made = try await pay(held.map { .command(.settle(tab: tab, key: $0)) } ?? .settle(tab), adopting: held != nil)
    guard case .settled(let receipt)? = made.record else { preconditionFailure("a charge made feeds back its receipt") }
    return receipt
  }

  /// Undoes the newest command on the undo history, as the shell's `undo`
  /// does, and says what was undone; nil when there is nothing to undo. A
  /// settle is undone by a refund: its intent first, the refund off the main
  /// actor, and the tab reopened (its stock back) only when the refund went
  /// through; a declined refund leaves it settled. A refund the processor
  /// already made of the charge (a journal restored from a copy lost it) is
  /// adopted, not made again; a key used before is given up and the undo
  /// asked again under the next one. Throws as `settle(_:)` does.
  public func undoNewest() async throws -> KioskShell.Undone? {
    guard let newest = state.history.last else { return nil }
    guard case .refund(_, let receipt) = state.history.plan else {
      let sent = try send(.undo)
      guard sent.outcome.record != nil else { throw Self.refusal(sent.outcome) }
      return KioskShell.Undone(record: newest.record, refund: nil)
    }
    try refuseWhileLedgerLacksKnownEntries()
    let held = environment.processor.ledger.refund(ofCharge: receipt.reference)?.key
    let made = try await pay(held.map { .command(.undo(key: $0)) } ?? .undo, adopting: held != nil)
    guard case .undone(let refund?, _)? = made.record else { preconditionFailure("a refund made feeds back the undo") }
    return KioskShell.Undone(record: newest.record, refund: refund)
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
      if let abandoned = closed.abandoned {
        if !adopting, KioskTill.isKeyUsedBefore(abandoned) { continue }
        throw Self.failure(abandoned)
      }
      guard let made = closed.outcome else { preconditionFailure("a payment made feeds back its step") }
      return made
    }
    throw KioskShellError.noFreshKey
  }

  /// A payment given up: a decline as the processor's, any other reason as the till's.
  static func failure(_ abandoned: String) -> any Error {
    if let reason = KioskTill.declineReason(abandoned) { return KioskError.payment(.declined(reason: reason)) }
    return TillRefusal(description: abandoned)
  }

  /// Closes the day as `kiosk close-day` does: into the archive the shell
  /// names (`KioskSegments.archiveName`, `<journal>.day-NNNN`) beside the
  /// journal, so the shell and its verifier find it (use this, not
  /// `closePeriod(into:)`, whose archive the day's records name as given).
  /// A close asked for again after a crash cut it short, which opening the
  /// store finished, with nothing done since, closes nothing more; it
  /// returns the day that closed. As the shell's, it does not close a day
  /// with a payment in flight (wait for it: `finish()`), nor one whose open
  /// tab the processor holds a charge of (its settle lost to a restored
  /// journal: the next day's keys would not find it, and a settle there would
  /// charge again; settle it today, and the charge is adopted), nor one
  /// whose ledger lost movements the journal does not account for.
  @discardableResult
  public func closeDay() throws -> Int {
    if let finished = closeFinishedOnOpen { return finished.period + 1 }
    if let paying = openIntents.first { throw KioskShellError.paymentInFlight(tab: paying.request.tab) }
    let ledger = environment.processor.ledger
    for tab in state.slices.tabs.open.keys.sorted() {
      if let held = ledger.heldCharge(of: tab, journalSalt: salt) {
        throw KioskShellError.heldChargeOfOpenTab(tab: tab, reference: held.reference, amount: held.amount)
      }
    }
    if !ledger.lostNumbers.isEmpty {
      let audit = try PaymentAudit.of(journal: path, ledger: environment.processor.path)
      guard audit.agrees else {
        throw KioskShellError.ledgerLostMovements(path: environment.processor.path, mismatches: audit.mismatches.count)
      }
    }
    let day = period + 1
    try closePeriod(into: KioskSegments.archiveName(of: path, day: day))
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
    return KioskShellError.tornDown
  }

  /// Refuses to move money while the processor's ledger lacks entries the
  /// day's journals hold its answers for (lost to damage): its answers about
  /// their tabs are wrong until `kiosk repair` writes them back.
  func refuseWhileLedgerLacksKnownEntries() throws {
    let numbers = try LostLedgerEntries.knownNumbers(in: environment.processor.ledger, journal: path)
    if !numbers.isEmpty {
      throw KioskShellError.ledgerLacksKnownEntries(path: environment.processor.path, numbers: numbers)
    }
  }

  /// The key of a charge the processor holds for `tab` under this journal's
  /// keys, which no refund gave back: the settle's, adopted. Nil when it holds none.
  func heldChargeKey(settling tab: Tab.ID) throws -> IdempotencyKey? {
    guard let held = environment.processor.ledger.heldCharge(of: tab, journalSalt: salt) else { return nil }
    let settlement = try state.settlement(for: tab)
    guard held.amount == settlement.total else {
      throw KioskShellError.heldChargeDiffers(
        tab: tab, reference: held.reference, charged: held.amount, total: settlement.total)
    }
    return held.key
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
