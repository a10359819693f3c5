import Menu

extension HasMutableStock where Self: ~Copyable {

  /// Adds `count` units of `ingredient` (a delivery). Writes: stock.
  ///
  /// Throws `RestockError.nonPositiveCount` for a count below one and changes nothing.
  @inlinable public mutating func restock(_ ingredient: Ingredient, count: Int) throws(RestockError) {
    guard count > 0 else { throw .nonPositiveCount(count) }
    stock.units[ingredient, default: 0] += count
  }
}

/// Why a restock was refused.
public enum RestockError: Error, Equatable, Sendable {
  /// Deliveries add at least one unit.
  case nonPositiveCount(Int)
}
