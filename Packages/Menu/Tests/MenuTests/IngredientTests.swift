import Foundation
import Menu
import Testing

/// Ingredients hash by case (not by their raw text), so every case must still
/// be its own key: a dictionary and a set of every case keep them all apart,
/// and equal ingredients hash alike, decoded or not.
@Test func everyIngredientIsItsOwnKeyAndEqualOnesHashAlike() throws {
  let counts = Dictionary(uniqueKeysWithValues: Ingredient.allCases.enumerated().map { ($1, $0) })
  #expect(counts.count == Ingredient.allCases.count)
  for (index, ingredient) in Ingredient.allCases.enumerated() { #expect(counts[ingredient] == index) }
  #expect(Set(Ingredient.allCases.map(\.hashValue)).count == Ingredient.allCases.count)
  for ingredient in Ingredient.allCases {
    let decoded = try JSONDecoder().decode(Ingredient.self, from: JSONEncoder().encode(ingredient))
    #expect(decoded == ingredient && decoded.hashValue == ingredient.hashValue)
  }
}
