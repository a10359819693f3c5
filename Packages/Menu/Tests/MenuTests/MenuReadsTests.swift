import Foundation
import Menu
import Testing

/// The smallest world that can read the menu.
struct MenuOnlyWorld: HasMenu {
  var menu: MenuState
}

@Test func priceSumsEachLineAndIgnoresUnknownItems() {
  let world = MenuOnlyWorld(
    menu: MenuState(items: [
      Item.ID(raw: 1): Item(name: "Latte", price: 4.5, recipe: [.beans: 1, .milk: 2]),
      Item.ID(raw: 2): Item(name: "Espresso", price: 3, recipe: [.beans: 1]),
    ]))
  let lines = [Item.ID(raw: 1), Item.ID(raw: 2), Item.ID(raw: 1), Item.ID(raw: 99)]
  #expect(world.price(of: lines) == 12)
  #expect(world.price(of: []) == 0)
}
