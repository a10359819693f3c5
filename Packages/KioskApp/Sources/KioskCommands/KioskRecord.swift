import Menu
import Payment
import Stock
import Tabs

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// One journaled command, with the outcomes of its external effects, so that
/// replay rebuilds the same world without calling the gateway or the clock.
public enum KioskRecord: Codable, Equatable, Sendable {
  /// The first record of a journal: the menu and stock the kiosk opened with.
  case initialized(menu: MenuState, stock: StockState)
  /// A tab was opened; `tab` is the id it got (replay checks it gets the same).
  case opened(tab: Tab.ID, customer: String)
  /// An item was added to a tab.
  case added(item: Item.ID, tab: Tab.ID)
  /// The last `item` was taken off a tab.
  case removed(item: Item.ID, tab: Tab.ID)
  /// Money is about to move: journaled, and synced, before the gateway is
  /// called with `intent.key`. Its outcome is a later record with the same key
  /// (`settled`, `undone` or `paymentAbandoned`); one without is open, and
  /// reconciliation asks the processor about it (docs/journal.md).
  case paymentIntent(PaymentIntent)
  /// An intent under which no money moved (declined, or unknown to the
  /// processor when reconciled); it changes nothing else.
  case paymentAbandoned(key: IdempotencyKey, reason: String)
  /// A tab was settled: the receipt carries the charge reference, the time and
  /// the intent's key.
  case settled(Receipt)
  /// A delivery was added to stock.
  case restocked(ingredient: Ingredient, count: Int)
  /// The last command still on the undo stack was reverted; `refund` is the
  /// gateway's reference when that command was a settle, and `key` its intent's key.
  case undone(refund: String?, key: IdempotencyKey? = nil)
  /// The day was closed (`kiosk close-day`): this file is the day's archive,
  /// named `archive`, and nothing follows this record. A live journal that ends
  /// with it is a close cut short, which the next writer finishes.
  case dayClosed(day: Int, archive: String)
  /// The till is named `till` in its chain from here on: by its first `kiosk
  /// sync`, or by `kiosk rename-till` once the head office accepted the new
  /// name. Every later checkpoint carries the name, so it outlives the day.
  case tillNamed(till: String)
}

/// What the kiosk is about to ask the processor to do, under which key.
public struct PaymentIntent: Codable, Equatable, Sendable {
  /// Which way the money moves.
  public enum Kind: String, Codable, Sendable {
    /// Settle a tab: take `amount` from the customer.
    case charge
    /// Undo a settle: give back `amount` of the charge `charge`.
    case refund
  }

  /// Which way the money moves.
  public var kind: Kind
  /// The idempotency key: the journal's salt and this intent's sequence number.
  public var key: IdempotencyKey
  /// The tab it is for.
  public var tab: Tab.ID
  /// How much.
  public var amount: Decimal
  /// For a refund, the charge's reference.
  public var charge: String?

  /// Creates an intent.
  public init(kind: Kind, key: IdempotencyKey, tab: Tab.ID, amount: Decimal, charge: String? = nil) {
    self.kind = kind
    self.key = key
    self.tab = tab
    self.amount = amount
    self.charge = charge
  }
}

extension KioskRecord {
  /// The key of the intent this record is the outcome of, if any.
  public var outcomeKey: IdempotencyKey? {
    switch self {
    case .settled(let receipt): receipt.key
    case .undone(_, let key): key
    case .paymentAbandoned(let key, _): key
    default: nil
    }
  }

  /// The intents in `records` that have no outcome yet, oldest first, after
  /// the intents already open before them (`openBefore`, from a checkpoint).
  public static func openIntents(in records: some Sequence<KioskRecord>, openBefore: [PaymentIntent] = [])
    -> [PaymentIntent]
  {
    var open = openBefore
    for record in records {
      if case .paymentIntent(let intent) = record {
        open.append(intent)
      } else if let key = record.outcomeKey {
        open.removeAll { $0.key == key }
      }
    }
    return open
  }
}

/// A record that does not apply to the state replay has reached: the journal
/// and the code disagree.
public struct ReplayError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The record's sequence number.
  public var sequence: Int
  /// Why it does not apply.
  public var reason: String

  /// The error of record `sequence`.
  public init(sequence: Int, reason: String) {
    self.sequence = sequence
    self.reason = reason
  }

  public var description: String { "journal record \(sequence) cannot be replayed: \(reason)" }
}

extension HasMutableTabs where Self: HasMutableMenu & HasMutableStock & ~Copyable {

  /// Applies a record's state change, with its recorded outcomes. Never calls a
  /// gateway or a clock. `undone` is the undo history's business, not this.
  /// Writes: menu, tabs, stock.
  package mutating func apply(_ record: KioskRecord) throws {
    switch record {
    case .initialized(let menu, let stock):
      self.menu = menu
      self.stock = stock
      tabs = TabsState()
    case .opened(let expected, let customer):
      // Checked before the tab opens, as every command checks first: a record that does not apply changes nothing.
      guard tabs.nextID == expected.raw else {
        throw ReplayFailure("opened tab #\(tabs.nextID), the journal says #\(expected.raw)")
      }
      _ = openTab(for: customer)
    case .added(let item, let tab):
      try add(item, to: tab)
    case .removed(let item, let tab):
      try remove(item, from: tab)
    case .settled(let receipt):
      let settlement = try settlement(for: receipt.tab)
      guard settlement.total == receipt.total else {
        throw ReplayFailure(
          "tab #\(receipt.tab.raw) totals \(exactMoney(settlement.total)), the receipt says \(exactMoney(receipt.total))"
        )
      }
      commit(settlement)
    case .restocked(let ingredient, let count):
      try restock(ingredient, count: count)
    case .undone, .paymentIntent, .paymentAbandoned, .dayClosed, .tillNamed:
      break
    }
  }
}

/// Why one record did not apply (wrapped into `ReplayError` with its number).
package struct ReplayFailure: Error, CustomStringConvertible {
  package var description: String
  package init(_ description: String) { self.description = description }
}
