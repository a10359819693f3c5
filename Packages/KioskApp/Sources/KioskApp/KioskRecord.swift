import Foundation
import Menu
import Stock
import Tabs

/// One journaled command, with the outcomes of its external effects, so that
/// replay rebuilds the same world without calling the gateway or the clock.
public enum KioskRecord: Codable, Equatable, Sendable {
  /// The first record of a journal: the menu and stock the kiosk opened with.
  case initialized(menu: MenuState, stock: StockState)
  /// A tab was opened; `tab` is the id it got (replay checks it gets the same).
  case opened(tab: Tab.ID, customer: String)
  /// An item was added to a tab.
  case added(item: Item.ID, tab: Tab.ID)
  /// A tab was settled: the receipt carries the charge reference and the time.
  case settled(Receipt)
  /// A delivery was added to stock.
  case restocked(ingredient: Ingredient, count: Int)
  /// The last command still on the undo stack was reverted; `refund` is the
  /// gateway's reference when that command was a settle.
  case undone(refund: String?)
}

/// A record that does not apply to the state replay has reached: the journal
/// and the code disagree.
public struct ReplayError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The record's sequence number.
  public var sequence: Int
  /// Why it does not apply.
  public var reason: String

  public var description: String { "journal record \(sequence) cannot be replayed: \(reason)" }
}

extension HasMutableTabs where Self: HasMutableMenu & HasMutableStock & ~Copyable {

  /// Applies a record's state change, with its recorded outcomes. Never calls a
  /// gateway or a clock. `undone` is the undo history's business, not this.
  /// Writes: menu, tabs, stock.
  mutating func apply(_ record: KioskRecord) throws {
    switch record {
    case .initialized(let menu, let stock):
      self.menu = menu
      self.stock = stock
      tabs = TabsState()
    case .opened(let expected, let customer):
      let id = openTab(for: customer)
      guard id == expected else { throw ReplayFailure("opened tab #\(id.raw), the journal says #\(expected.raw)") }
    case .added(let item, let tab):
      try add(item, to: tab)
    case .settled(let receipt):
      let settlement = try settlement(for: receipt.tab)
      guard settlement.total == receipt.total else {
        throw ReplayFailure("tab #\(receipt.tab.raw) totals \(settlement.total), the receipt says \(receipt.total)")
      }
      commit(settlement)
    case .restocked(let ingredient, let count):
      try restock(ingredient, count: count)
    case .undone:
      break
    }
  }
}

/// Why one record did not apply (wrapped into `ReplayError` with its number).
struct ReplayFailure: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}
