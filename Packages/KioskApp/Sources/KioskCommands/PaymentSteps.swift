import Clock
import Payment
import Stock
import Tabs

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The one effect a command may need before it applies: money moving at the
/// processor. A settle and an undo are each decide → this effect → apply; the
/// till's durable store runs the effect with deadlines and retries, and a
/// scenario or `kiosk-replay` runs it at once on the world's processor. Both
/// call the same decide and apply functions (`settlement(for:)`,
/// `UndoHistory.plan`, `applyCharge`, `applyUndo`).
public enum PaymentEffect: Equatable, Sendable {
  /// Take `amount` from the customer under `key`.
  case charge(amount: Decimal, key: IdempotencyKey)
  /// Give back `amount` of the charge `reference` under `key`.
  case refund(reference: String, amount: Decimal, key: IdempotencyKey)

  /// The effect's idempotency key.
  public var key: IdempotencyKey {
    switch self {
    case .charge(_, let key), .refund(_, _, let key): key
    }
  }

  /// Asks `gateway` to move the money; returns the movement's reference.
  public func run<Gateway: PaymentGateway & ~Copyable>(on gateway: inout Gateway) throws(PaymentError) -> String {
    switch self {
    case .charge(let amount, let key): try gateway.charge(amount, key: key)
    case .refund(let reference, let amount, let key): try gateway.refund(reference, amount: amount, key: key)
    }
  }
}

/// What `undo` will do, decided from the history alone.
public enum UndoPlan: Equatable, Sendable {
  /// The history is empty.
  case nothing
  /// A command that moved no money: revert it at once.
  case revert(UndoHistory.Entry)
  /// A settle: refund its charge, then revert it.
  case refund(UndoHistory.Entry, Receipt)

  /// The refund an undo needs under `key`, if any.
  public func effect(key: IdempotencyKey) -> PaymentEffect? {
    guard case .refund(_, let receipt) = self else { return nil }
    return .refund(reference: receipt.reference, amount: receipt.total, key: key)
  }
}

extension UndoHistory {
  /// The decide phase of `undo`: what reverting the newest entry takes.
  public var plan: UndoPlan {
    guard let entry = last else { return .nothing }
    if case .settled(let receipt) = entry.record { return .refund(entry, receipt) }
    return .revert(entry)
  }
}

extension HasMutableTabs where Self: HasMutableStock & HasClock & ~Copyable {
  /// The apply phase of a settle whose charge went through as `reference`:
  /// consumes the stock, settles the tab, stamps the receipt with the
  /// clock's time. Cannot fail for a settlement read from this state.
  /// Writes: tabs, stock. Reads: clock.
  public mutating func applyCharge(_ settlement: Settlement, reference: String, key: IdempotencyKey)
    -> UndoHistory.Entry
  {
    let receipt = Receipt(
      tab: settlement.tab, total: settlement.total, chargedAt: Receipt.time(clock.now()), reference: reference,
      key: key)
    commit(settlement)
    return UndoHistory.Entry(
      record: .settled(receipt),
      step: .reopen(settlement.tab, tab: settlement.contents, total: settlement.total, needs: settlement.needs))
  }
}

extension HasMutableTabs where Self: HasMutableStock & ~Copyable {
  /// The apply phase of an undo: reverts `entry` (the history's newest), pops
  /// it, and returns the record that says so, with the refund's reference and
  /// key when money moved back. Writes: tabs, stock.
  public mutating func applyUndo(
    of entry: UndoHistory.Entry, refund: String?, key: IdempotencyKey?, history: inout UndoHistory
  ) -> KioskRecord {
    revert(entry.step)
    _ = history.pop()
    return .undone(refund: refund, key: refund == nil ? nil : key)
  }
}
