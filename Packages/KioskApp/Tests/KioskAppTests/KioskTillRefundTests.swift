import DurableStore
import Foundation
import Journal
import KioskCommands
import Menu
import Payment
import Tabs
import Testing

@testable import KioskApp

// Undoing a settle on the framework's store: the refund is the store's
// intent, the tab stays settled until it comes back, and the store finishes
// or goes on with a day left with a refund in it.

/// A store whose Ada has settled her tab, and the receipt.
@MainActor private func storeWhereAdaSettled(
  _ journal: TemporaryJournal, seam: (@Sendable (CrashPoint) throws(SimulatedCrash) -> Void)? = nil
) async throws -> (DurableStore<KioskTill>?, Receipt) {
  let (store, ada) = try storeWithAdasTab(journal, seam: seam)
  let receipt = try #require(try await store?.settle(ada))
  #expect(receipt.tab == ada)
  return (store, receipt)
}

@MainActor
@Test func undoingASettleOnTheStoreRefundsItOnceAndReopensTheTabWithItsStock() async throws {
  let journal = try TemporaryJournal()
  let (opened, receipt) = try await storeWhereAdaSettled(journal)
  let store = try #require(opened)
  let undone = try #require(try await store.undoNewest())
  #expect(undone.record == .settled(receipt))
  let refund = try #require(undone.refund)
  let key = IdempotencyKey(journalSalt: store.salt, sequence: 7, tab: receipt.tab.raw)
  #expect(
    try journal.records().suffix(2) == [
      .paymentIntent(
        PaymentIntent(kind: .refund, key: key, tab: receipt.tab, amount: receipt.total, charge: receipt.reference)),
      .undone(refund: refund, key: key),
    ])
  #expect(store.state.slices.tabs.open[receipt.tab]?.lines == [latte, espresso])
  #expect(store.state.slices.stock == KioskDefaults.stock)
  #expect(store.state.refunding == nil && store.openIntents.isEmpty && store.state.undo.count == 3)
  #expect(store.environment.processor.ledger.refund(ofCharge: receipt.reference)?.reference == refund)
}

@MainActor
@Test func aDeclinedRefundLeavesTheTabSettledAndItsSettleOnTheUndoHistory() async throws {
  let journal = try TemporaryJournal()
  let (opened, receipt) = try await storeWhereAdaSettled(journal)
  let store = try #require(opened)
  let before = store.state
  store.environment.processor.fault = .decline
  await #expect(throws: KioskError.payment(.declined(reason: "the processor declines every payment (fault injection)")))
  {
    _ = try await store.undoNewest()
  }
  guard case .paymentAbandoned(_, let reason)? = try journal.records().last else {
    Issue.record("the decline is journaled as the refund intent's abandonment")
    return
  }
  #expect(KioskTill.declineReason(reason) != nil)
  var expected = before
  expected.paymentsJournaled = true
  #expect(store.state == expected, "still settled, the settle still the newest to undo")

  store.environment.processor.fault = nil
  #expect(try await store.undoNewest()?.record == .settled(receipt))
  #expect(store.state.slices.tabs.open[receipt.tab] != nil)
}

@MainActor
@Test func whileARefundIsInFlightEveryCommandWaitsForIt() async throws {
  let journal = try TemporaryJournal()
  let (opened, receipt) = try await storeWhereAdaSettled(journal)
  let store = try #require(opened)
  try store.send(.undo)
  #expect(store.state.refunding == receipt.tab)
  let inFlight = TillError.paymentInFlight(tab: receipt.tab).description
  for action in [
    KioskTill.Action.command(.openTab(customer: "Grace")), .command(.restock(ingredient: .milk, count: 1)),
    .command(.undo(key: IdempotencyKey(journalSalt: 1, sequence: 1))), .undo, .settle(receipt.tab),
  ] {
    let outcome = try store.send(action).outcome
    #expect(outcome.record == nil && outcome.payment == nil && outcome.reason == inFlight, "\(action)")
  }
  #expect(throws: TillError.paymentInFlight(tab: receipt.tab)) { try store.closeDay() }
  await store.finish()
  #expect(store.state.refunding == nil)
  #expect(store.state.slices.tabs.open[receipt.tab] != nil)
  try store.send(.command(.openTab(customer: "Grace")))
}

/// An undo of a settle stopped at each of its seams in turn, then the store
/// opened again: the refund was made at most once and not after the
/// restart, the tab is open exactly when it was refunded, and the till, as
/// `kiosk` opens it, then opens the same day.
@MainActor
@Test func anUndoStoppedAtEachOfItsSeamsIsFinishedOnOpenWithOneRefundAtMost() async throws {
  var seamsInAnUndo = 0
  for stopAt in 1...12 {
    let journal = try TemporaryJournal()
    let counter = ArmedSeam()
    var (store, receipt) = try await storeWhereAdaSettled(journal) { point throws(SimulatedCrash) in
      try counter.seam(point)
    }
    counter.arm(stopAt: stopAt)
    var undone: Undone?
    do { undone = try await store?.undoNewest() } catch {}
    await store?.cancelAll()
    let movedBeforeTheStop = store?.environment.processor.ledger.entries.count ?? 0
    store = nil
    if undone != nil {
      #expect(counter.stopped == false)
      seamsInAnUndo = stopAt - 1
      break
    }

    let reopened = try journal.openStore()
    await reopened.finish()
    let movements = reopened.environment.processor.ledger.entries
    #expect(movements.count == movedBeforeTheStop, "stopped at seam \(stopAt): nothing moves after a restart")
    #expect(reopened.openIntents.isEmpty && reopened.state.refunding == nil, "stopped at seam \(stopAt)")
    let refunded = movements.count == 2
    #expect((reopened.state.slices.tabs.open[receipt.tab] != nil) == refunded, "stopped at seam \(stopAt)")
    #expect(reopened.state.undo.count == (refunded ? 3 : 4), "stopped at seam \(stopAt)")
    let slices = reopened.state.slices
    _ = consume reopened

    let till = try await journal.openTill()
    #expect(till.snapshot == slices, "stopped at seam \(stopAt)")
    #expect(try till.view(withLedger: false).openIntents.isEmpty)
  }
  #expect(seamsInAnUndo >= 4, "an undo passes the intent's record, the refund and the outcome's record")
}

/// A journal restored from a copy taken after a settle and before its undo:
/// the processor holds the refund the copy has no record of. Undoing again
/// adopts it under its key; no money moves again.
@MainActor
@Test func aRefundTheProcessorHoldsForARestoredJournalIsAdoptedNotMadeAgain() async throws {
  let journal = try TemporaryJournal()
  var (store, receipt) = try await storeWhereAdaSettled(journal)
  store = nil
  let copy = journal.bytes
  store = try journal.openStore()
  let first = try #require(try await store?.undoNewest()?.refund)
  store = nil
  try copy.write(to: URL(fileURLWithPath: journal.path))

  store = try journal.openStore()
  #expect(store?.state.slices.tabs.open[receipt.tab] == nil, "the copy holds the tab settled")
  // One more record first: the undo's own key is then another than the held refund's.
  try store?.send(.nameTill("north"))
  let adopted = try #require(try await store?.undoNewest())
  #expect(adopted.refund == first)
  #expect(store?.state.slices.tabs.open[receipt.tab] != nil)
  #expect(store?.environment.processor.ledger.entries.count == 2, "the charge and the one refund")
}

@MainActor
@Test(arguments: [JournalFormat.encoderVersion, JournalFormat.canonicalVersion])
func aDayWithARefundGoesOnWhenOpenedAgainInEitherFormat(version: UInt16) async throws {
  let journal = try TemporaryJournal()
  var till: TillShell? = try await journal.openTill(newFileVersion: version)
  let ada = try #require(try await till?.openTab(for: "Ada"))
  try await till?.add(latte, to: ada)
  _ = try await till?.settle(ada)
  _ = try await till?.undo()
  _ = try await till?.settle(ada)
  let before = try #require(till?.snapshot)
  let history = try #require(till?.store.state.undo)
  till = nil
  #expect(try DurableJournal.read(path: journal.path).version == version)

  let store = try journal.openStore()
  #expect(store.state.slices == before)
  #expect(store.state.undo == history)
  let undone = try #require(try await store.undoNewest())
  #expect(undone.refund != nil)
  #expect(store.state.slices.tabs.open[ada] != nil)
}
