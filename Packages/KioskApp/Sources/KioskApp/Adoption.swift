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
