import KioskCommands
import Payment
import Tabs

extension KioskShell {
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
        reconciled.append(IntentReconciliation(intent: intent, resolution: .completed(reference: reference)))
      case (.refund, .refunded(let reference, let charge, let amount))
      where charge != intent.charge || amount != intent.amount:
        // A refund of another charge or amount: the tab stays settled.
        try abandon(intent, keyUsedFor: reference)
      case (.refund, .refunded(let reference, _, _)):
        let undone = history.last?.record
        try completeUndo(refund: reference, key: intent.key)
        reconciled.append(
          IntentReconciliation(intent: intent, resolution: .completed(reference: reference), undone: undone))
      case (_, .unknown):
        try journal(.paymentAbandoned(key: intent.key, reason: "the processor has no record of the key"))
        reconciled.append(IntentReconciliation(intent: intent, resolution: .abandoned))
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
    reconciled.append(IntentReconciliation(intent: intent, resolution: .keyUsedBefore(reference: reference)))
  }
}

/// What reconciliation did with one open intent.
public struct IntentReconciliation: Equatable, Sendable {
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
