#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// One thing for sale: its name, price and recipe.
public struct Item: Hashable, Codable, Sendable {
  /// A menu item's stable number.
  public struct ID: Hashable, Codable, Sendable, Comparable {
    /// The number itself.
    public let raw: Int

    /// Wraps a number.
    public init(raw: Int) { self.raw = raw }

    public static func < (lhs: ID, rhs: ID) -> Bool { lhs.raw < rhs.raw }
  }

  /// The name on the board.
  public var name: String
  /// The price in the till's currency.
  public var price: Decimal
  /// Ingredient → units consumed per serving.
  public var recipe: [Ingredient: Int]

  /// Creates an item.
  public init(name: String, price: Decimal, recipe: [Ingredient: Int]) {
    self.name = name
    self.price = price
    self.recipe = recipe
  }

  /// Encodes the recipe in ingredient-name order (decoding is Swift's own).
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(name, forKey: .name)
    try container.encode(price, forKey: .price)
    try container.encodeSorted(recipe, forKey: .recipe, by: { $0.rawValue < $1.rawValue })
  }
}
