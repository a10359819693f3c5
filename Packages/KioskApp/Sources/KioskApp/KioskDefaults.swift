import Menu
import Stock

/// The menu and stock a new kiosk opens with, so the first command works with no set-up.
public enum KioskDefaults {
  /// Latte, flat white, oat latte, espresso and cold brew, with recipes.
  public static let menu = MenuState(items: [
    Item.ID(raw: 1): Item(name: "Latte", price: 4.5, recipe: [.beans: 1, .milk: 2, .cup: 1]),
    Item.ID(raw: 2): Item(name: "Flat White", price: 4, recipe: [.beans: 2, .milk: 1, .cup: 1]),
    Item.ID(raw: 3): Item(name: "Oat Latte", price: 5, recipe: [.beans: 1, .oatMilk: 2, .cup: 1]),
    Item.ID(raw: 4): Item(name: "Espresso", price: 3, recipe: [.beans: 1, .cup: 1]),
    Item.ID(raw: 5): Item(name: "Cold Brew", price: 4.25, recipe: [.beans: 2, .cup: 1]),
  ])

  /// A morning's delivery.
  public static let stock = StockState(units: [.beans: 40, .milk: 30, .oatMilk: 12, .syrup: 10, .cup: 50])
}
