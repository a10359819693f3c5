import Foundation
import Testing

// The real binary on a slow, silent or lossy network to its processor
// ($KIOSK_PROCESSOR_NETWORK), each payment under a deadline of 0.2 s
// (`KioskBinary.testEnvironment`): the real-time side of the virtual-time
// tests in KioskAppTests/ShellEffectTests.

/// A journal with Ada's tab holding a latte.
private func adaWithALatte() throws -> (TemporaryJournal, KioskBinary) {
  let journal = try TemporaryJournal()
  let kiosk = KioskBinary(journal: journal.path, owner: journal)
  _ = try kiosk("open", "Ada")
  _ = try kiosk("add", "1", "latte")
  return (journal, kiosk)
}

@Test func aSilentProcessorFailsTheSettleAtItsDeadlineAndTheNextWriterReconciles() throws {
  let (_, kiosk) = try adaWithALatte()
  let settle = try kiosk("settle", "1", environment: ["KIOSK_PROCESSOR_NETWORK": "silent"])
  #expect(settle.status == 75)
  #expect(settle.errors.hasPrefix("kiosk: the payment processor did not answer in time ("))
  #expect(settle.errors.contains("the payment is unresolved until reconciled"))
  #expect(try kiosk("board").output == "#1 Ada: Latte — 4.50\n")
  let next = try kiosk("open", "Bo")
  #expect(next.status == 0)
  #expect(next.errors.contains("the processor has no record of it; abandoned, nothing moved"))
  #expect(try kiosk("settle", "1").status == 0)
  #expect(try kiosk("reconcile").status == 0)
}

@Test func aLostAnswerIsRetriedUnderTheSameKeyAndChargesOnce() throws {
  let (journal, kiosk) = try adaWithALatte()
  let settle = try kiosk(
    "settle", "1", environment: ["KIOSK_PROCESSOR_NETWORK": "loses-first-answer", "KIOSK_PAYMENT_DEADLINE": "2"])
  #expect(settle.status == 0)
  #expect(settle.output.contains("total       4.50"))
  let reconcile = try kiosk("reconcile")
  #expect(reconcile.output.hasPrefix("processor: 1 charges (4.50), 0 refunds (0.00)"))
  #expect(FileManager.default.fileExists(atPath: journal.path + ".processor"))
}

@Test func aSlowProcessorWithinTheDeadlineSettles() throws {
  let (_, kiosk) = try adaWithALatte()
  let settle = try kiosk("settle", "1", environment: ["KIOSK_PROCESSOR_NETWORK": "slow:0.01"])
  #expect(settle.status == 0)
  #expect(try kiosk("board", "--all").output == "#1 Ada: Latte — 4.50 (settled)\n")
}

@Test(arguments: [
  (
    "KIOSK_PROCESSOR_NETWORK", "fast",
    "KIOSK_PROCESSOR_NETWORK must be direct, silent, loses-first-answer or slow:SECONDS"
  ),
  ("KIOSK_PROCESSOR_NETWORK", "slow:-1", "KIOSK_PROCESSOR_NETWORK must be"),
  ("KIOSK_PAYMENT_DEADLINE", "0", "KIOSK_PAYMENT_DEADLINE must be seconds"),
  ("KIOSK_PAYMENT_DEADLINE", "1e3", "KIOSK_PAYMENT_DEADLINE must be seconds"),
])
func aBadNetworkOrDeadlineIsAUsageError(name: String, value: String, message: String) throws {
  let (journal, kiosk) = try adaWithALatte()
  let before = journal.bytes
  let settle = try kiosk("settle", "1", environment: [name: value])
  #expect(settle.status == 64)
  #expect(settle.errors.hasPrefix("kiosk: \(message)"))
  #expect(journal.bytes == before, "nothing was journaled")
}

@Test func aJournalNamedWithoutAFolderIsFoundInTheWorkingDirectory() throws {
  let journal = try TemporaryJournal()
  let kiosk = KioskBinary(journal: journal.path, owner: journal)
  let open = try kiosk.run(["open", "Ada"], directory: journal.folder)
  #expect(open.status == 0, "\(open.errors)")
  let board = try kiosk.run(["--journal", "kiosk.journal", "board"], directory: journal.folder)
  #expect(board.output == "#1 Ada: nothing yet — 0.00\n")
  #expect(FileManager.default.fileExists(atPath: journal.path))
}

@Test func anUndoWhoseRefundGetsNoAnswerFailsAtItsDeadlineAndLeavesTheTabSettled() throws {
  let (_, kiosk) = try adaWithALatte()
  #expect(try kiosk("settle", "1").status == 0)
  let undo = try kiosk("undo", environment: ["KIOSK_PROCESSOR_NETWORK": "silent"])
  #expect(undo.status == 75)
  #expect(undo.errors.contains("the payment processor did not answer in time"))
  #expect(try kiosk("board", "--all").output == "#1 Ada: Latte — 4.50 (settled)\n")
  let next = try kiosk("undo")
  #expect(next.status == 0, "the refund intent is abandoned (nothing moved), then the settle is undone")
  #expect(next.output.hasPrefix("undid: settle tab #1"))
  #expect(try kiosk("reconcile").status == 0)
}

/// An undo whose refund's answer came too late (exit 75), asked for again:
/// the refund the processor made is the undo asked for, completed on the way
/// in and reported; nothing more is undone (before, the next tab back was
/// refunded too).
@Test func anUndoRetriedAfterItsAnswerWasLateUndoesOnce() throws {
  let (_, kiosk) = try adaWithALatte()
  #expect(try kiosk("open", "Bob").status == 0)
  #expect(try kiosk("add", "2", "espresso").status == 0)
  #expect(try kiosk("settle", "1").status == 0)
  #expect(try kiosk("settle", "2").status == 0)
  let late = try kiosk("undo", environment: ["KIOSK_PROCESSOR_NETWORK": "slow:1"])
  #expect(late.status == 75, "\(late.errors)")
  let again = try kiosk("undo")
  #expect(again.status == 0, "\(again.errors)")
  #expect(again.output.contains("tab #2"), "\(again.output)")
  let board = try kiosk("board").output
  #expect(board.hasPrefix("#2 Bob: Espresso — 3.00\nsettled: 1 tab, 4.50"), "only Bob's tab is back: \(board)")
  let reconcile = try kiosk("reconcile")
  #expect(reconcile.status == 0 && reconcile.output.contains("1 refunds (3.00)"), "\(reconcile.output)")
}
