import Foundation
import Journal
import KioskApp
import Payment
import Tabs
import Testing

/// A shell over `journal` with one tab, Ada's, holding a latte.
@MainActor
func adaWithALatte(in journal: TemporaryJournal) throws -> (KioskShell, Tab.ID) {
  let shell = try journal.openShell()
  let tab = try shell.openTab(for: "Ada")
  try shell.add(latte, to: tab)
  return (shell, tab)
}

/// Stands for the process dying at a payment step: the hook throws it, the
/// test drops the shell (only what is durable survives) and reopens.
struct ShellCrash: Error {}

/// A fault at one step of a money-moving command.
enum PaymentFault: String, CaseIterable, CustomStringConvertible {
  /// The till dies after the intent is durable, before the processor is called.
  case crashAfterIntent
  /// The till dies after the processor moved the money, before the outcome is journaled.
  case crashAfterEffect
  /// The till dies after the outcome is durable, before the command is acknowledged.
  case crashAfterOutcome
  /// The outcome cannot be journaled (the append fails after the charge).
  case appendFailsAfterEffect
  /// The processor takes the money and the answer is lost.
  case processorLosesTheAnswer
  /// The processor does not answer and moves nothing.
  case processorTimesOut

  var description: String { rawValue }

  @MainActor func arm(_ shell: KioskShell) {
    switch self {
    case .crashAfterIntent: shell.paymentStepHook = { if $0 == .afterIntent { throw ShellCrash() } }
    case .crashAfterEffect: shell.paymentStepHook = { if $0 == .afterEffect { throw ShellCrash() } }
    case .crashAfterOutcome: shell.paymentStepHook = { if $0 == .afterOutcome { throw ShellCrash() } }
    case .appendFailsAfterEffect:
      shell.paymentStepHook = { if $0 == .afterEffect { throw JournalError.failedEarlier } }
    case .processorLosesTheAnswer: shell.setProcessorFault(.failAfterCharging)
    case .processorTimesOut: shell.setProcessorFault(.timeout)
    }
  }

  /// Whether the processor moved the money under the intent's key.
  var moneyMoved: Bool { ![.crashAfterIntent, .processorTimesOut].contains(self) }
}

@MainActor
@Test(arguments: PaymentFault.allCases)
func aSettleInterruptedAtAnyStepIsReconciledWithoutChargingTwice(fault: PaymentFault) async throws {
  let journal = try TemporaryJournal()
  do {
    let (shell, tab) = try adaWithALatte(in: journal)
    fault.arm(shell)
    if fault == .crashAfterOutcome {
      await #expect(throws: ShellCrash.self) { try await shell.settle(tab) }
    } else {
      await #expect(throws: (any Error).self) { try await shell.settle(tab) }
      #expect(shell.openIntents.count == 1, "the intent stays open for reconciliation")
    }
  }
  let reopened = try journal.openShell()
  let tab = Tab.ID(raw: 1)
  #expect(reopened.openIntents.isEmpty)
  let audit = try reopened.paymentAudit()
  #expect(audit.agrees, "\(audit.mismatches)")
  #expect(reopened.processorLedger.count == (fault.moneyMoved ? 1 : 0))
  #expect(reopened.snapshot.tabs.isSettled(tab) == fault.moneyMoved)
  if fault != .crashAfterOutcome {
    #expect(reopened.reconciled.map(\.resolution.isCompleted) == [fault.moneyMoved])
  }
  if !fault.moneyMoved {
    // The tab is still open; settling it now charges exactly once.
    _ = try await reopened.settle(tab)
    #expect(reopened.processorLedger.count == 1)
  }
  #expect(try reopened.paymentAudit().agrees)
}

@MainActor
@Test(arguments: PaymentFault.allCases)
func anUndoOfASettleInterruptedAtAnyStepIsReconciledWithoutRefundingTwice(fault: PaymentFault) async throws {
  let journal = try TemporaryJournal()
  do {
    let (shell, tab) = try adaWithALatte(in: journal)
    _ = try await shell.settle(tab)
    fault.arm(shell)
    await #expect(throws: (any Error).self) { try await shell.undo() }
  }
  let reopened = try journal.openShell()
  #expect(reopened.openIntents.isEmpty)
  let audit = try reopened.paymentAudit()
  #expect(audit.agrees, "\(audit.mismatches)")
  #expect(reopened.processorLedger.map(\.kind) == (fault.moneyMoved ? [.charge, .refund] : [.charge]))
  #expect(reopened.snapshot.tabs.isSettled(Tab.ID(raw: 1)) == !fault.moneyMoved)
}

@MainActor
@Test func settlingAnEmptyTabIsRefusedAndJournalsNothing() async throws {
  let journal = try TemporaryJournal()
  let shell = try journal.openShell()
  let tab = try shell.openTab(for: "Ada")
  let before = journal.bytes
  await #expect(throws: KioskError.emptyTab(tab)) { try await shell.settle(tab) }
  #expect(journal.bytes == before)
  #expect(shell.processorLedger.isEmpty)
}

extension IntentReconciliation.Resolution {
  var isCompleted: Bool {
    if case .completed = self { return true }
    return false
  }
}

@MainActor
@Test func aJournalCutBackNeverReusesAKeyTheProcessorKnows() async throws {
  let journal = try TemporaryJournal()
  let before: Data
  do {
    let shell = try journal.openShell()
    let tab = try shell.openTab(for: "Ada")
    before = journal.bytes  // the journal as a backup would hold it
    try shell.add(latte, to: tab)
    _ = try await shell.settle(tab)  // charged 4.50 under the key of record 4, for tab 1
    _ = try await shell.undo()  // and refunded: the processor holds nothing for the tab
  }
  // Cut the journal back: records 3 and on, and so record 4's key, are free again.
  _ = FileManager.default.createFile(atPath: journal.path, contents: before)
  let shell = try journal.openShell()
  try shell.add(espresso, to: Tab.ID(raw: 1))
  let receipt = try await shell.settle(Tab.ID(raw: 1))  // its first candidate key is record 4's
  #expect(receipt.total == 3)
  #expect(shell.processorLedger.map(\.amount) == [4.5, 4.5, 3], "a new charge, not the old one")
  #expect(shell.processorLedger.last?.reference == receipt.reference)
  #expect(shell.adoptions.isEmpty)
  #expect(
    shell.records.contains {
      if case .paymentAbandoned(_, let reason) = $0 { return reason.contains("already used this key") }
      return false
    })
}

/// Ada's tab with a latte, settled; returns the journal's bytes as a backup
/// taken just before the settle would hold them, and the charge's reference.
@MainActor
private func settledWithABackupTakenBefore(in journal: TemporaryJournal) async throws -> (Data, String) {
  let shell = try journal.openShell()
  let tab = try shell.openTab(for: "Ada")
  try shell.add(latte, to: tab)
  let backup = journal.bytes
  let receipt = try await shell.settle(tab)
  return (backup, receipt.reference)
}

@MainActor
@Test func aRestoredJournalAdoptsTheChargeTheProcessorHoldsInsteadOfChargingTwice() async throws {
  let journal = try TemporaryJournal()
  let (backup, reference) = try await settledWithABackupTakenBefore(in: journal)
  _ = FileManager.default.createFile(atPath: journal.path, contents: backup)
  let tab = Tab.ID(raw: 1)
  do {
    let shell = try journal.openShell()
    #expect(shell.snapshot.tabs.open[tab] != nil, "the restored journal lost the settle")
    let receipt = try await shell.settle(tab)
    #expect(receipt.reference == reference, "the processor's charge is the settle's outcome")
    #expect(shell.processorLedger.count == 1, "no second charge")
    #expect(shell.adoptions.map(\.movement.reference) == [reference])
    #expect(try shell.paymentAudit().agrees)
  }
  // It is journaled: a reopened till has the tab settled with that charge.
  let reopened = try journal.openShell()
  #expect(reopened.snapshot.tabs.isSettled(tab))
  #expect(try reopened.paymentAudit().agrees)
}

@MainActor
@Test func aHeldChargeOfAnotherAmountIsRefusedAndNothingIsCharged() async throws {
  let journal = try TemporaryJournal()
  let (backup, _) = try await settledWithABackupTakenBefore(in: journal)
  _ = FileManager.default.createFile(atPath: journal.path, contents: backup)
  let shell = try journal.openShell()
  let tab = Tab.ID(raw: 1)
  try shell.add(espresso, to: tab)
  let bytes = journal.bytes
  await #expect(
    throws: KioskShellError.heldChargeDiffers(
      tab: tab, reference: shell.processorLedger[0].reference, charged: 4.5, total: 7.5)
  ) { try await shell.settle(tab) }
  #expect(journal.bytes == bytes, "a refused settle journals nothing")
  #expect(shell.processorLedger.count == 1)
  let refusal = KioskShellError.heldChargeDiffers(tab: tab, reference: "ch_1", charged: 4.5, total: 7.5).description
  #expect(refusal.contains("a charge of 4.50 for tab #1") && refusal.contains("the tab now totals 7.50"), "\(refusal)")
  #expect(refusal.contains("bring the tab back to 4.50"), "amounts as money: \(refusal)")
  // Brought back to what was charged, the tab settles with the charge.
  try shell.remove(espresso, from: tab)
  _ = try await shell.settle(tab)
  #expect(shell.processorLedger.count == 1)
  #expect(try shell.paymentAudit().agrees)
}

@MainActor
@Test func anUndoOfARestoredSettleAdoptsTheRefundTheProcessorMade() async throws {
  let journal = try TemporaryJournal()
  let backup: Data
  do {
    let shell = try journal.openShell()
    let tab = try shell.openTab(for: "Ada")
    try shell.add(latte, to: tab)
    _ = try await shell.settle(tab)
    backup = journal.bytes
    _ = try await shell.undo()  // refunded
  }
  _ = FileManager.default.createFile(atPath: journal.path, contents: backup)
  let shell = try journal.openShell()
  #expect(shell.snapshot.tabs.isSettled(Tab.ID(raw: 1)), "the restored journal lost the undo")
  let undone = try #require(try await shell.undo())
  #expect(undone.refund == shell.processorLedger.last?.reference)
  #expect(shell.processorLedger.map(\.kind) == [.charge, .refund], "no second refund")
  #expect(shell.adoptions.count == 1)
  #expect(shell.snapshot.tabs.open[Tab.ID(raw: 1)] != nil)
  #expect(try shell.paymentAudit().agrees)
}

@MainActor
@Test func aMissingLedgerIsRefusedInsteadOfAbandoningRealCharges() async throws {
  let journal = try TemporaryJournal()
  do {
    let (shell, tab) = try adaWithALatte(in: journal)
    shell.setProcessorFault(.failAfterCharging)  // charged, answer lost: the intent stays open
    await #expect(throws: KioskShellError.self) { try await shell.settle(tab) }
  }
  let ledger = journal.path + ".processor"
  try FileManager.default.moveItem(atPath: ledger, toPath: ledger + ".away")
  #expect(throws: KioskShellError.ledgerMissing(path: ledger)) { _ = try journal.openShell() }
  #expect(!FileManager.default.fileExists(atPath: ledger), "no empty ledger is left to be taken for the real one")
  try FileManager.default.moveItem(atPath: ledger + ".away", toPath: ledger)
  let shell = try journal.openShell()
  #expect(shell.reconciled.map(\.resolution.isCompleted) == [true])
  #expect(try shell.paymentAudit().agrees)
}

@MainActor
@Test func aNewJournalBesideALedgerWithMovementsIsRefused() async throws {
  let journal = try TemporaryJournal()
  do {
    let (shell, tab) = try adaWithALatte(in: journal)
    _ = try await shell.settle(tab)
  }
  try FileManager.default.removeItem(atPath: journal.path)
  #expect(throws: KioskShellError.ledgerOfAnotherJournal(path: journal.path + ".processor", movements: 1)) {
    _ = try journal.openShell()
  }
}
