import Foundation
import KioskApp
import KioskCommands
import Payment
import Tabs
import Testing

// The audit on literal journals and ledgers: what it calls a disagreement.

private let chargeKey = IdempotencyKey("k-1")
private let settledTab = Tab.ID(raw: 1)
private let settledReceipt = Receipt(
  tab: settledTab, total: Decimal(string: "8.75")!, chargedAt: Date(timeIntervalSince1970: 1_750_000_000),
  reference: "ch_t_1", key: chargeKey)
private let charged = [
  LocalProcessor.Entry(kind: .charge, key: chargeKey, reference: "ch_t_1", amount: settledReceipt.total)
]

/// A settle: its intent, the processor's charge and the receipt all say 8.75.
private func settle(intent amount: Decimal, kind: PaymentIntent.Kind = .charge, for intentTab: Tab.ID = settledTab)
  -> [KioskRecord]
{
  [.paymentIntent(PaymentIntent(kind: kind, key: chargeKey, tab: intentTab, amount: amount)), .settled(settledReceipt)]
}

@Test func aChargeWhoseIntentReceiptAndLedgerAgreeIsNoMismatch() {
  let audit = PaymentAudit(ledger: charged, records: settle(intent: settledReceipt.total))
  #expect(audit.agrees, "\(audit.mismatches)")
  #expect(audit.charges == 1 && audit.chargedTotal == settledReceipt.total)
}

/// An intent out by a factor of 100 (875 for 8.75), negative, for another tab,
/// or of the wrong kind is a journal written wrong, though the settledReceipt and the
/// processor agree.
@Test func aChargeIntentThatSaysOtherwiseThanItsChargeIsAMismatch() {
  let wrong: [(records: [KioskRecord], says: String)] = [
    (settle(intent: 875), "a charge of 875.00 for tab #1"),
    (settle(intent: Decimal(string: "-8.75")!), "a charge of -8.75 for tab #1"),
    (settle(intent: settledReceipt.total, for: Tab.ID(raw: 2)), "a charge of 8.75 for tab #2"),
    (settle(intent: settledReceipt.total, kind: .refund), "a refund of 8.75 for tab #1"),
  ]
  for (records, says) in wrong {
    let audit = PaymentAudit(ledger: charged, records: records)
    #expect(audit.mismatches == ["charge ch_t_1: its intent is \(says), the processor charged 8.75"])
  }
}

/// After a journal is cut back (a backup restored), a later intent can get a
/// settled charge's key again; the till asks the processor, finds the key used
/// and abandons it. The charge is compared with the intent its settle closed,
/// not with that later one.
@Test func aLaterIntentAbandonedUnderASettledChargesKeyIsNoMismatch() {
  let records =
    settle(intent: settledReceipt.total) + [
      .paymentIntent(
        PaymentIntent(kind: .refund, key: chargeKey, tab: settledTab, amount: settledReceipt.total, charge: "ch_t_1")),
      .paymentAbandoned(key: chargeKey, reason: "the processor already used this key"),
    ]
  let audit = PaymentAudit(ledger: charged, records: records)
  #expect(audit.agrees, "\(audit.mismatches)")
}

/// An intent resolved by a checkpoint after its outcome was lost takes the
/// movement of its own kind under its key that no outcome claims: a refund
/// intent under a settled charge's key (a key used again, then abandoned) is
/// no undo of that charge.
@Test func anIntentClosedByACheckpointTakesNoMovementAnotherOutcomeClaims() {
  let refundIntent = PaymentIntent(
    kind: .refund, key: chargeKey, tab: settledTab, amount: settledReceipt.total, charge: "ch_t_1")
  let audit = PaymentAudit(
    ledger: charged, records: settle(intent: settledReceipt.total) + [.paymentIntent(refundIntent)],
    closedByCheckpoint: [refundIntent])
  #expect(audit.agrees, "\(audit.mismatches)")
  #expect(audit.undoneTotal == 0 && audit.settledTotal == settledReceipt.total)
}
