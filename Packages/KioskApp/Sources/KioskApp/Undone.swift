import KioskCommands

/// What an undo reverted: the command, and the refund's reference when it was a settle.
public struct Undone: Equatable, Sendable {
  /// The command that was reverted.
  public var record: KioskRecord
  /// The refund's reference, when the command was a settle.
  public var refund: String?

  /// What an undo of `record` reverted, with `refund` when it gave money back.
  public init(record: KioskRecord, refund: String?) {
    self.record = record
    self.refund = refund
  }
}
