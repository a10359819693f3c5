import Menu

extension HasMenu where Self: HasStock & ~Copyable {

  /// Can the kitchen make this item right now? Reads: menu, stock.
  @inlinable public func isAvailable(_ id: Item.ID) -> Bool {
    guard let item = menu.items[id] else { return false }
    return item.recipe.allSatisfy { ingredient, needed in
      stock.units[ingredient, default: 0] >= needed
    }
  }
}
