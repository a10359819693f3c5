import KioskCommands
import Payment
import Tabs

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A movement the processor had already made for a command this journal has
/// no outcome for (the journal was restored from a backup, or cut back),
/// taken as the command's outcome instead of moving money again.
public struct Adoption: Equatable, Sendable {
  /// The tab it settled or reopened.
  public var tab: Tab.ID
  /// The processor's movement: a charge adopted by a settle, a refund by an undo.
  public var movement: LocalProcessor.Entry
  /// The receipt of an adopted charge.
  public var receipt: Receipt?

  /// A line for the person at the till.
  public var description: String {
    let what = movement.kind == .charge ? "charge" : "refund"
    return "adopted the processor's \(what) \(movement.reference) of \(money(movement.amount)) for tab #\(tab.raw) "
      + "(key '\(movement.key)'), which this journal had no record of; no money moved again"
  }
}

extension KioskShell {
  /// Money is not moved while the ledger lacks entries the journal holds (lost
  /// to damage, or past the end of a ledger restored from an older copy): the
  /// ledger's answers about their tabs are wrong until `kiosk repair` writes
  /// them back (a lost refund would let a settle adopt a charge already given
  /// back, or an undo refund twice). Lost numbers the journal does not name
  /// cannot be written back by anything, and block nothing.
  func refuseWhileLedgerLacksKnownEntries() throws {
    let lost = world.processor.lostNumbers
    // Reading every day's records is done once per set of lost numbers, not once per payment.
    guard !lost.isEmpty, lost != lostNumbersTheJournalDoesNotName else { return }
    let numbers = try LostLedgerEntries.knownNumbers(in: world.processor.ledger, journal: journalPath)
    guard !numbers.isEmpty else {
      lostNumbersTheJournalDoesNotName = lost
      return
    }
    throw KioskShellError.ledgerLacksKnownEntries(path: world.processor.path, numbers: numbers)
  }

  /// The processor is the authority on money: a charge it holds for `tab`
  /// under a key of this journal, which no refund gave back, is this settle's
  /// outcome. Journals its intent under the charge's key and the settle with
  /// its reference, and returns the receipt; nil when the processor holds none.
  /// A held charge of another amount than the settlement is refused, and nothing moves.
  func adoptHeldCharge(settling settlement: Settlement) throws -> Receipt? {
    guard let held = world.processor.ledger.heldCharge(of: settlement.tab, journalSalt: world.journal.salt) else {
      return nil
    }
    guard held.amount == settlement.total else {
      throw KioskShellError.heldChargeDiffers(
        tab: settlement.tab, reference: held.reference, charged: held.amount, total: settlement.total)
    }
    try journal(
      .paymentIntent(PaymentIntent(kind: .charge, key: held.key, tab: settlement.tab, amount: held.amount)))
    try paymentStepHook?(.afterIntent)
    let entry = try commit(
      beforeAppend: { try paymentStepHook?(.afterEffect) },
      { world in world.applyCharge(settlement, reference: held.reference, key: held.key) })
    guard case .settled(let receipt) = entry.record else { preconditionFailure("a settle records `settled`") }
    adoptions.append(Adoption(tab: settlement.tab, movement: held, receipt: receipt))
    return receipt
  }

  /// The undo of a settle whose charge the processor already refunded: the
  /// refund is the undo's outcome. Journals its intent under the refund's key
  /// and the undo with its reference; nil when the charge was not refunded.
  func adoptHeldRefund(of receipt: Receipt) throws -> Undone? {
    guard let entry = history.last, let held = world.processor.ledger.refund(ofCharge: receipt.reference) else {
      return nil
    }
    try journal(
      .paymentIntent(
        PaymentIntent(
          kind: .refund, key: held.key, tab: receipt.tab, amount: held.amount, charge: receipt.reference)))
    try paymentStepHook?(.afterIntent)
    try completeUndo(
      refund: held.reference, key: held.key, beforeAppend: { try paymentStepHook?(.afterEffect) })
    adoptions.append(Adoption(tab: receipt.tab, movement: held, receipt: nil))
    return Undone(record: entry.record, refund: held.reference)
  }
}
