import Menu

extension HasMutableStock where Self: ~Copyable {

  /// Adds `count` units of `ingredient` (a delivery). Writes: stock.
  ///
  /// Throws, and changes nothing, for a count below one or one that would take
  /// the ingredient over `StockState.maxUnits`: no count can overflow.
  @inlinable public mutating func restock(_ ingredient: Ingredient, count: Int) throws(RestockError) {
    guard count > 0 else { throw .nonPositiveCount(count) }
    guard count <= StockState.maxUnits - stock.units[ingredient, default: 0] else {
      throw .overLimit(ingredient, limit: StockState.maxUnits)
    }
    stock.units[ingredient, default: 0] += count
  }
}

/// Why a restock was refused.
public enum RestockError: Error, Equatable, Sendable {
  /// Deliveries add at least one unit.
  case nonPositiveCount(Int)
  /// The delivery would take the ingredient over `limit` units.
  case overLimit(Ingredient, limit: Int)
}
