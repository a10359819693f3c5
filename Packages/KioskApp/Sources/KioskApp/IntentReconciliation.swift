import KioskCommands
import Payment
import Tabs

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
