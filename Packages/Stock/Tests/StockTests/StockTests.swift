import Foundation
import Menu
import Stock
import Testing

/// A world that reads the menu and owns the stock.
struct StockWorld: HasMenu, HasMutableStock {
  var menu: MenuState
  var stock: StockState
}

let latte = Item.ID(raw: 1)
let menu = MenuState(items: [latte: Item(name: "Latte", price: 5, recipe: [.beans: 1, .milk: 2])])

@Test func anItemIsAvailableOnlyWhileEveryIngredientCovers() {
  var world = StockWorld(menu: menu, stock: StockState(units: [.beans: 1, .milk: 2]))
  #expect(world.isAvailable(latte))
  world.stock.units[.milk] = 1
  #expect(!world.isAvailable(latte))
  #expect(!world.isAvailable(Item.ID(raw: 42)))
}

@Test func consumingMoreThanOnHandThrowsAndChangesNothing() {
  var stock = StockState(units: [.milk: 1])
  #expect(throws: StockState.Shortage.insufficient(.milk)) { try stock.consume(.milk, count: 2) }
  #expect(stock == StockState(units: [.milk: 1]))
  try? stock.consume(.milk, count: 1)
  #expect(stock.units[.milk] == 0)
}

@Test func shortageNamesTheFirstOverdrawnIngredient() {
  let stock = StockState(units: [.beans: 5, .milk: 1])
  #expect(stock.shortage(for: [.beans: 5, .milk: 1]) == nil)
  #expect(stock.shortage(for: [.milk: 2, .cup: 1]) == .milk)
}

@Test func restockAddsUnitsAndRefusesNonPositiveCounts() throws {
  var world = StockWorld(menu: menu, stock: StockState(units: [.milk: 1]))
  try world.restock(.milk, count: 4)
  try world.restock(.cup, count: 2)
  #expect(world.stock == StockState(units: [.milk: 5, .cup: 2]))
  #expect(throws: RestockError.nonPositiveCount(0)) { try world.restock(.milk, count: 0) }
  #expect(world.stock == StockState(units: [.milk: 5, .cup: 2]))
}
