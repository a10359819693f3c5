import Clock
import Menu
import Payment
import Stock
import Tabs

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// One command of the till, as data: what the kiosk runs, what a scenario's
/// `When` sends and what the replay server receives (docs/replay.md).
///
/// The idempotency key of a money movement is part of the action: the kiosk
/// derives it from its journal, a scenario or a replay request names it.
public enum KioskAction: Equatable, Sendable {
  /// Opens a tab for `customer`.
  case openTab(customer: String)
  /// Adds `item` to `tab`.
  case add(item: Item.ID, tab: Tab.ID)
  /// Takes the last `item` off `tab`.
  case remove(item: Item.ID, tab: Tab.ID)
  /// Adds a delivery of `count` units of `ingredient`.
  case restock(ingredient: Ingredient, count: Int)
  /// Charges `tab` under `key`, consumes its stock and marks it settled.
  case settle(tab: Tab.ID, key: IdempotencyKey)
  /// Reverts the newest command still on the undo stack; a settle is refunded under `key`.
  case undo(key: IdempotencyKey)
}

/// Why an action was refused: the domain's own error, unchanged.
public enum ActionRefusal: Error, Equatable, Sendable {
  /// A tab command was refused, or the processor did not take the money.
  case kiosk(KioskError)
  /// A delivery was refused.
  case restock(RestockError)

  /// The domain error itself, as the kiosk throws it.
  public var error: any Error {
    switch self {
    case .kiosk(let error): error
    case .restock(let error): error
    }
  }
}

/// What one action did: the record the till journals for it (none when it
/// was refused, or for an undo with nothing to undo), and the refusal.
public struct ActionOutcome: Equatable, Sendable {
  /// The record the kiosk journals for the action.
  public var record: KioskRecord?
  /// Why the action was refused; nil when it went through.
  public var refusal: ActionRefusal?

  /// Creates an outcome.
  public init(record: KioskRecord?, refusal: ActionRefusal?) {
    self.record = record
    self.refusal = refusal
  }
}

extension HasMutableTabs where Self: HasMutableMenu & HasMutableStock & ~Copyable {

  /// Runs a command that moves no money (open, add, remove, restock) and
  /// returns its record with the inverse taken from the world before it ran;
  /// nil, having done nothing, for `settle` and `undo`, which move money or
  /// revert the history. Checks come first, so a refused command has changed
  /// nothing. Writes: tabs, stock. Reads: menu.
  public mutating func runWithoutMoney(_ action: KioskAction) throws(ActionRefusal) -> UndoHistory.Entry? {
    do {
      switch action {
      case .openTab(let text):
        // The same rules as the command line's, so a scenario or a replay request cannot store what `kiosk open` refuses.
        let customer: String
        do throws(CustomerName.Refusal) { customer = try CustomerName.validated(text) } catch {
          throw KioskError.invalidName(error)
        }
        let step = UndoStep.closeTab(Tab.ID(raw: tabs.nextID), previousNextID: tabs.nextID)
        let id = openTab(for: customer)
        return UndoHistory.Entry(record: .opened(tab: id, customer: customer), step: step)
      case .add(let item, let tab):
        try add(item, to: tab)
        return UndoHistory.Entry(record: .added(item: item, tab: tab), step: .dropLastLine(tab))
      case .remove(let item, let tab):
        let index = tabs.open[tab]?.lines.lastIndex(of: item)
        try remove(item, from: tab)
        // `remove` succeeded, so the item was on the tab at `index`.
        return UndoHistory.Entry(record: .removed(item: item, tab: tab), step: .insertLine(item, at: index!, tab: tab))
      case .restock(let ingredient, let count):
        do throws(RestockError) { try restock(ingredient, count: count) } catch { throw ActionRefusal.restock(error) }
        return UndoHistory.Entry(
          record: .restocked(ingredient: ingredient, count: count), step: .unrestock(ingredient, count: count))
      case .settle, .undo:
        return nil
      }
    } catch let error as KioskError {
      throw .kiosk(error)
    } catch let refusal as ActionRefusal {
      throw refusal
    } catch {
      preconditionFailure("a command threw \(error), which is neither a KioskError nor a RestockError")
    }
  }
}

extension HasMutableTabs where Self: HasMutableMenu & HasMutableStock & HasPayment & HasClock & ~Copyable {

  /// Runs a command (any action but `undo`) and returns its record with the
  /// inverse taken from the world before it ran. Checks come first, so a
  /// refused command has changed nothing. Writes: tabs, stock, payment
  /// session. Reads: menu, clock.
  public mutating func run(_ action: KioskAction) throws(ActionRefusal) -> UndoHistory.Entry {
    if let entry = try runWithoutMoney(action) { return entry }
    switch action {
    case .settle(let tab, let key):
      // Decide, the effect, apply: the steps the kiosk runs around its journal.
      let settlement: Settlement
      do throws(KioskError) { settlement = try self.settlement(for: tab) } catch { throw .kiosk(error) }
      let reference: String
      do throws(PaymentError) {
        reference = try PaymentEffect.charge(amount: settlement.total, key: key).run(on: &payment)
      } catch { throw .kiosk(.payment(error)) }
      return applyCharge(settlement, reference: reference, key: key)
    default:
      preconditionFailure("undo reverts the history: call perform(_:history:)")
    }
  }

  /// Runs `action` against `history`, the way the kiosk does without its
  /// journal: a command pushes its entry; `undo` refunds a settle under its
  /// key, reverts the newest entry and pops it. Never touches a journal.
  public mutating func perform(_ action: KioskAction, history: inout UndoHistory) -> ActionOutcome {
    guard case .undo(let key) = action else {
      do {
        let entry = try run(action)
        history.push(entry)
        return ActionOutcome(record: entry.record, refusal: nil)
      } catch {
        return ActionOutcome(record: nil, refusal: error)
      }
    }
    let plan = history.plan
    let entry: UndoHistory.Entry
    switch plan {
    case .nothing: return ActionOutcome(record: nil, refusal: nil)
    case .revert(let newest), .refund(let newest, _): entry = newest
    }
    var refund: String?
    if let effect = plan.effect(key: key) {
      do { refund = try effect.run(on: &payment) } catch {
        return ActionOutcome(record: nil, refusal: .kiosk(.payment(error)))
      }
    }
    return ActionOutcome(record: applyUndo(of: entry, refund: refund, key: key, history: &history), refusal: nil)
  }
}
