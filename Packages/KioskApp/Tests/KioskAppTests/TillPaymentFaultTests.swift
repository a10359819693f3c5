import Clock
import DurableStore
import Foundation
import Journal
import KioskCommands
import Payment
import Tabs
import Testing
import VirtualTime

@testable import KioskApp

// A settle, and the undo of one, cut short at each of its steps, as `kiosk`
// runs them (`TillShell`): whatever the step, the next till finds the
// journal and the processor's ledger agreeing, no intent open, and money
// moved at most once; and a journal restored from a copy adopts the
// movements the processor already made, saying so, instead of making them
// again.

/// A fault at one step of a money-moving command.
enum PaymentFault: String, CaseIterable, CustomStringConvertible {
  /// The till stops after the intent is durable, before the processor is called.
  case stopAfterIntent
  /// The till stops after the processor moved the money, before the outcome is journaled.
  case stopAfterEffect
  /// The till stops after the outcome is durable, before the command is acknowledged.
  case stopAfterOutcome
  /// The processor takes the money and the answer is lost.
  case processorLosesTheAnswer
  /// The processor does not answer and moves nothing.
  case processorTimesOut

  var description: String { rawValue }

  /// The processor's fault this one acts out, if it is the processor's.
  var processor: ProcessorFault? {
    switch self {
    case .processorLosesTheAnswer: .failAfterCharging
    case .processorTimesOut: .timeout
    default: nil
    }
  }

  /// Arms `stop` for this fault, if it is the till's.
  func arm(_ stop: StopAt) {
    switch self {
    case .stopAfterIntent: stop.arm { if case .beforePerform = $0 { true } else { false } }
    case .stopAfterEffect: stop.arm { if case .afterPerform = $0 { true } else { false } }
    case .stopAfterOutcome:
      stop.arm({ $0 == .afterRecord }, after: { if case .afterPerform = $0 { true } else { false } })
    case .processorLosesTheAnswer, .processorTimesOut: break
    }
  }

  /// Whether the processor moved the money under the intent's key.
  var moneyMoved: Bool { ![.stopAfterIntent, .processorTimesOut].contains(self) }
}

/// A till over `journal`, with `fault` armed for its next payment, and Ada's
/// tab holding a latte (`settled`: settled already).
@MainActor private func adaWithALatte(_ journal: TemporaryJournal, settled: Bool = false, fault: PaymentFault)
  async throws -> (TillShell, Tab.ID)
{
  do {
    let till = try await journal.openTill()
    let ada = try await till.openTab(for: "Ada")
    try await till.add(latte, to: ada)
    if settled { _ = try await till.settle(ada) }
  }
  let stop = StopAt()
  let till = try await journal.openTill(fault: fault.processor, crashSeam: stop.seam)
  fault.arm(stop)
  return (till, Tab.ID(raw: 1))
}

@MainActor
@Test(arguments: PaymentFault.allCases)
func aSettleCutShortAtAnyStepIsReconciledWithoutChargingTwice(fault: PaymentFault) async throws {
  let journal = try TemporaryJournal()
  do {
    let (till, ada) = try await adaWithALatte(journal, fault: fault)
    _ = try? await till.settle(ada)
    await till.store.cancelAll()
  }
  let reopened = try await journal.openTill()
  let ada = Tab.ID(raw: 1)
  #expect(try reopened.view(withLedger: false).openIntents.isEmpty, "\(fault)")
  #expect(try reopened.paymentAudit().agrees, "\(fault)")
  #expect(reopened.processorLedger.count == (fault.moneyMoved ? 1 : 0), "\(fault)")
  #expect(reopened.snapshot.tabs.isSettled(ada) == fault.moneyMoved, "\(fault)")
  if !fault.moneyMoved {
    // The tab is still open; settling it now charges exactly once.
    _ = try await reopened.settle(ada)
    #expect(reopened.processorLedger.count == 1, "\(fault)")
    #expect(try reopened.paymentAudit().agrees, "\(fault)")
  }
}

@MainActor
@Test(arguments: PaymentFault.allCases)
func anUndoOfASettleCutShortAtAnyStepIsReconciledWithoutRefundingTwice(fault: PaymentFault) async throws {
  let journal = try TemporaryJournal()
  do {
    let (till, _) = try await adaWithALatte(journal, settled: true, fault: fault)
    _ = try? await till.undo()
    await till.store.cancelAll()
  }
  let reopened = try await journal.openTill()
  #expect(try reopened.view(withLedger: false).openIntents.isEmpty, "\(fault)")
  #expect(try reopened.paymentAudit().agrees, "\(fault)")
  #expect(reopened.processorLedger.map(\.kind) == (fault.moneyMoved ? [.charge, .refund] : [.charge]), "\(fault)")
  #expect(reopened.snapshot.tabs.isSettled(Tab.ID(raw: 1)) == !fault.moneyMoved, "\(fault)")
}

/// Ada's tab with a latte, settled; returns the journal's bytes as a backup
/// taken just before the settle would hold them, and the charge's reference.
@MainActor private func settledWithABackupTakenBefore(in journal: TemporaryJournal) async throws -> (Data, String) {
  let till = try await journal.openTill()
  let tab = try await till.openTab(for: "Ada")
  try await till.add(latte, to: tab)
  let backup = journal.bytes
  let receipt = try await till.settle(tab)
  return (backup, receipt.reference)
}

@MainActor
@Test func aRestoredJournalAdoptsTheChargeTheProcessorHoldsAndSaysSo() async throws {
  let journal = try TemporaryJournal()
  let (backup, reference) = try await settledWithABackupTakenBefore(in: journal)
  _ = FileManager.default.createFile(atPath: journal.path, contents: backup)
  let tab = Tab.ID(raw: 1)
  do {
    let till = try await journal.openTill()
    #expect(till.tab(tab) != nil, "the restored journal lost the settle")
    let receipt = try await till.settle(tab)
    #expect(receipt.reference == reference, "the processor's charge is the settle's outcome")
    #expect(till.processorLedger.count == 1, "no second charge")
    let adoption = try #require(till.adoptions.first)
    #expect(till.adoptions.count == 1 && adoption.movement.reference == reference)
    #expect(adoption.tab == tab && adoption.receipt == receipt)
    #expect(adoption.description.hasPrefix("adopted the processor's charge \(reference) of 4.50 for tab #1"))
    #expect(try till.paymentAudit().agrees)
  }
  // It is journaled: a reopened till has the tab settled with that charge.
  let reopened = try await journal.openTill()
  #expect(reopened.snapshot.tabs.isSettled(tab))
  #expect(try reopened.paymentAudit().agrees)
}

@MainActor
@Test func aHeldChargeOfAnotherAmountIsRefusedAndNothingIsCharged() async throws {
  let journal = try TemporaryJournal()
  let (backup, reference) = try await settledWithABackupTakenBefore(in: journal)
  _ = FileManager.default.createFile(atPath: journal.path, contents: backup)
  let till = try await journal.openTill()
  let tab = Tab.ID(raw: 1)
  try await till.add(espresso, to: tab)
  let bytes = journal.bytes
  await #expect(throws: TillError.heldChargeDiffers(tab: tab, reference: reference, charged: 4.5, total: 7.5)) {
    try await till.settle(tab)
  }
  #expect(journal.bytes == bytes, "a refused settle journals nothing")
  #expect(till.processorLedger.count == 1)
  let refusal = TillError.heldChargeDiffers(tab: tab, reference: "ch_1", charged: 4.5, total: 7.5).description
  #expect(refusal.contains("a charge of 4.50 for tab #1") && refusal.contains("the tab now totals 7.50"), "\(refusal)")
  #expect(refusal.contains("bring the tab back to 4.50"), "amounts as money: \(refusal)")
  // Brought back to what was charged, the tab settles with the charge.
  try await till.remove(espresso, from: tab)
  _ = try await till.settle(tab)
  #expect(till.processorLedger.count == 1)
  #expect(till.adoptions.map(\.movement.reference) == [reference])
  #expect(try till.paymentAudit().agrees)
}

@MainActor
@Test func anUndoOfARestoredSettleAdoptsTheRefundTheProcessorMadeAndSaysSo() async throws {
  let journal = try TemporaryJournal()
  let backup: Data
  do {
    let till = try await journal.openTill()
    let tab = try await till.openTab(for: "Ada")
    try await till.add(latte, to: tab)
    _ = try await till.settle(tab)
    backup = journal.bytes
    _ = try await till.undo()  // refunded
  }
  _ = FileManager.default.createFile(atPath: journal.path, contents: backup)
  let till = try await journal.openTill()
  let tab = Tab.ID(raw: 1)
  #expect(till.snapshot.tabs.isSettled(tab), "the restored journal lost the undo")
  let undone = try #require(try await till.undo())
  let refund = try #require(till.processorLedger.last)
  #expect(undone.refund == refund.reference)
  #expect(till.processorLedger.map(\.kind) == [.charge, .refund], "no second refund")
  let adoption = try #require(till.adoptions.first)
  #expect(till.adoptions.count == 1 && adoption.movement == refund)
  #expect(adoption.tab == tab && adoption.receipt == nil)
  #expect(adoption.description.hasPrefix("adopted the processor's refund \(refund.reference) of 4.50 for tab #1"))
  #expect(till.tab(tab) != nil)
  #expect(try till.paymentAudit().agrees)
}

/// A charge made whose outcome the till never journaled (it stopped), and
/// then the ledger moved away: the till refuses to open rather than abandon
/// a real charge against an empty ledger, and, the ledger back, completes it.
@MainActor
@Test func aMissingLedgerIsRefusedInsteadOfAbandoningRealCharges() async throws {
  let journal = try TemporaryJournal()
  do {
    let (till, ada) = try await adaWithALatte(journal, fault: .stopAfterEffect)
    await #expect(throws: DurableStoreError.self) { try await till.settle(ada) }
    await till.store.cancelAll()
  }
  let ledger = journal.path + ".processor"
  try FileManager.default.moveItem(atPath: ledger, toPath: ledger + ".away")
  await #expect(throws: TillError.ledgerMissing(path: ledger)) { _ = try await journal.openTill() }
  #expect(!FileManager.default.fileExists(atPath: ledger), "no empty ledger is left to be taken for the real one")
  try FileManager.default.moveItem(atPath: ledger + ".away", toPath: ledger)
  let till = try await journal.openTill()
  guard case .completed? = till.reconciled.first?.resolution, till.reconciled.count == 1 else {
    Issue.record("the charge is completed on the way in: \(till.reconciled)")
    return
  }
  #expect(till.snapshot.tabs.isSettled(Tab.ID(raw: 1)))
  #expect(try till.paymentAudit().agrees)
}

/// A payment's request cancelled while the processor has not answered (the
/// till shutting down): the command ends with `tornDown`, its intent open
/// for the next till. On virtual time, so the attempt cannot time out first.
@MainActor
@Test func aPaymentCancelledBeforeItsAnswerEndsTornDownAndStaysOpen() async throws {
  let journal = try TemporaryJournal()
  do {
    let silent = EffectEnvironment(
      clock: VirtualClock(TestClock()), jitter: .none, policy: .standard, network: .silent)
    let till = try await journal.openTill(effects: silent)
    let ada = try await till.openTab(for: "Ada")
    try await till.add(latte, to: ada)
    let settling = Task { @MainActor in try await till.settle(ada) }
    while try till.view(withLedger: false).openIntents.isEmpty { await Task.yield() }
    await till.store.cancelAll()
    await #expect(throws: TillError.tornDown) { try await settling.value }
    #expect(try till.view(withLedger: false).openIntents.count == 1)
  }
  let reopened = try await journal.openTill()
  #expect(reopened.reconciled.map(\.resolution) == [.abandoned], "nothing moved: the next till gives it up")
  #expect(reopened.tab(Tab.ID(raw: 1)) != nil)
}
