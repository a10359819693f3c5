import Menu

/// The stock slice: units of each ingredient on hand. Plain copyable data.
public struct StockState: Codable, Equatable, Sendable {
  /// The most units of one ingredient the stock holds: far below `Int.max`, so
  /// sums over every ingredient cannot overflow either.
  public static let maxUnits = 1_000_000_000

  /// Units on hand, by ingredient; a missing ingredient has none.
  public var units: [Ingredient: Int]

  /// Creates the slice.
  public init(units: [Ingredient: Int] = [:]) {
    self.units = units
  }

  /// Encodes the units in ingredient-name order (decoding is Swift's own).
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encodeSorted(units, forKey: .units, by: { $0.rawValue < $1.rawValue })
  }

  /// Not enough of an ingredient to do what was asked.
  public enum Shortage: Error, Equatable, Sendable {
    /// Too few units of this ingredient.
    case insufficient(Ingredient)
  }

  /// Removes `count` units, or throws and changes nothing.
  public mutating func consume(_ ingredient: Ingredient, count: Int) throws(Shortage) {
    let have = units[ingredient, default: 0]
    guard have >= count else { throw .insufficient(ingredient) }
    units[ingredient] = have - count
  }

  /// The first ingredient (in declaration order) that `needs` would overdraw, if any.
  public func shortage(for needs: [Ingredient: Int]) -> Ingredient? {
    Ingredient.allCases.first { needs[$0, default: 0] > units[$0, default: 0] }
  }
}

extension StockState {
  /// Puts `needs` back (the inverse of consuming them).
  @inlinable public mutating func giveBack(_ needs: [Ingredient: Int]) {
    for (ingredient, count) in needs { units[ingredient, default: 0] += count }
  }

  /// Takes `count` units of `ingredient` away (the inverse of a delivery).
  @inlinable public mutating func take(_ count: Int, of ingredient: Ingredient) {
    units[ingredient, default: 0] -= count
  }
}
