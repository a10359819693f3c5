/// Something the kitchen consumes to make an item.
public enum Ingredient: String, Hashable, Codable, CaseIterable, Sendable {
  /// Coffee beans, for one shot.
  case beans
  /// Dairy milk.
  case milk
  /// Oat milk.
  case oatMilk
  /// Flavour syrup.
  case syrup
  /// A cup.
  case cup
}
