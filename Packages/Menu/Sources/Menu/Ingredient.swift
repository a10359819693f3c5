/// Something the kitchen consumes to make an item.
public enum Ingredient: String, Hashable, Codable, CaseIterable, Sendable {
  case beans, milk, oatMilk, syrup, cup
}
