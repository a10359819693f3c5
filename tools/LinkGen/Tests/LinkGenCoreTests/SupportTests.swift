import LinkGenCore
import Testing

@Test(arguments: [("Menu", "menu"), ("URLCache", "urlCache"), ("ID", "id"), ("Payment", "payment"), ("a", "a")])
func theDefaultPropertyIsLowerCamelCase(name: String, property: String) {
  #expect(SwiftIdentifier.lowerCamel(name) == property)
}

@Test func typesWithSugarAreAcceptedAndBrokenOnesAreNot() {
  for good in ["Date", "Foundation.Date", "[Int]", "[String: Int]", "Int?", "Set<String>"] {
    #expect(SwiftIdentifier.typeProblem(with: good) == nil, "\(good)")
  }
  for bad in ["", "Stock State", "[Int", "Set<String", "3D", "class"] {
    #expect(SwiftIdentifier.typeProblem(with: bad) != nil, "\(bad)")
  }
}

@Test func suggestionsOnlyOfferCloseMatches() {
  #expect(Suggestion.closest(to: "stat", in: ["state", "service"]) == "state")
  #expect(Suggestion.closest(to: "zzz", in: ["state", "service"]) == nil)
}
