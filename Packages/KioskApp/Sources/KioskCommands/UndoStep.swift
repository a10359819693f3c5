import Menu
import Stock
import Tabs

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The inverse of one journaled command: the few values that put the world
/// back, taken from the world just before the command ran. Undo and the
/// rollback of a failed command apply it; no command keeps a copy of a slice,
/// so a command's cost does not grow with the slices (docs/ARCHITECTURE.md).
public enum UndoStep: Codable, Equatable, Sendable {
  /// Undoes `opened`.
  case closeTab(Tab.ID, previousNextID: Int)
  /// Undoes `added`.
  case dropLastLine(Tab.ID)
  /// Undoes `removed`: the line goes back at its index.
  case insertLine(Item.ID, at: Int, tab: Tab.ID)
  /// Undoes `settled`: the tab, as it was paid for, is open again (it left
  /// the state when it was settled), it is no longer counted with the settled
  /// tabs and their `total`, and the stock it consumed comes back.
  case reopen(Tab.ID, tab: Tab, total: Decimal, needs: [Ingredient: Int])
  /// Undoes `restocked`.
  case unrestock(Ingredient, count: Int)

  /// The inverse of `record`, computed from `world` before the record applies;
  /// nil for a record that is not undoable (the first record, intents, undos).
  package static func before<World: HasTabs & HasMenu & HasStock & ~Copyable>(
    _ record: KioskRecord, in world: borrowing World
  ) throws -> UndoStep? {
    switch record {
    case .opened(let tab, _): return .closeTab(tab, previousNextID: world.tabs.nextID)
    case .added(_, let tab): return .dropLastLine(tab)
    case .removed(let item, let tab):
      guard let index = world.tabs.open[tab]?.lines.lastIndex(of: item) else { throw KioskError.notOnTab(tab) }
      return .insertLine(item, at: index, tab: tab)
    case .settled(let receipt):
      let settlement = try world.settlement(for: receipt.tab)
      return .reopen(receipt.tab, tab: settlement.contents, total: settlement.total, needs: settlement.needs)
    case .restocked(let ingredient, let count): return .unrestock(ingredient, count: count)
    case .initialized, .paymentIntent, .paymentAbandoned, .undone, .dayClosed, .tillNamed: return nil
    }
  }
}

extension HasMutableTabs where Self: HasMutableStock & ~Copyable {
  /// Applies an inverse: one write to each slice it names. Writes: tabs, stock.
  package mutating func revert(_ step: UndoStep) {
    switch step {
    case .closeTab(let tab, let previousNextID): tabs.closeTab(tab, restoringNextID: previousNextID)
    case .dropLastLine(let tab): tabs.dropLastLine(of: tab)
    case .insertLine(let item, let index, let tab): tabs.insertLine(item, at: index, in: tab)
    case .reopen(let id, let tab, let total, let needs):
      stock.giveBack(needs)
      tabs.reopen(id, as: tab, total: total)
    case .unrestock(let ingredient, let count): stock.take(count, of: ingredient)
    }
  }
}
