import LinkGenCore
import Testing

@Test(arguments: [
  "Int", "Tab.ID", "[String]", "[String: Int]", "Int?", "Int??", "Set<String>", "Dictionary<String, [Int]>",
  "(Int, Int)", "(name: String, count: Int)", "()", "any Error", "some Sequence", "any P & Q", "P & Q",
  "(Int) -> Void", "@Sendable (Int) async throws -> String", "(Int) throws(PaymentError) -> Int",
  "@escaping @Sendable () -> Void", "Int.Type", "any Error.Type", "Result<Int, any Error>", "[Tab.ID: [Item.ID]]",
  "Self", "Any", "Swift.Int", "Ünïcode",
])
func aSwiftTypeIsAccepted(type: String) {
  #expect(SwiftIdentifier.typeProblem(with: type) == nil)
}

@Test(arguments: [
  "StockState, Int", "Stock?State", "[StockState:]", "Stock State", "", "[Int", "Set<String", "Set<>",
  "(Int", "Int...", "Int!", "Date?!?", "any", "-> Int", "Int -> Int", "1Int", "class", "@unknown Int",
  "Int; import Foundation", "Int\nfunc x()", "[:]", "<Int>",
])
func aTextThatIsNotASwiftTypeIsRefused(type: String) {
  #expect(SwiftIdentifier.typeProblem(with: type) == "'\(type)' is not a Swift type")
}

@Test(arguments: ["borrowing String", "consuming [Int]", "sending Int"])
func aParameterTypeMayCarryOwnership(type: String) {
  #expect(SwiftIdentifier.typeProblem(with: type, parameter: true) == nil)
  #expect(SwiftIdentifier.typeProblem(with: type) != nil)
}

@Test func aDocStringCannotEndItsCommentAndBecomeCode() {
  let lines = DocComment.lines("x\rpublic func injected() -> Int { 42 }\r\ny\u{2028}z\u{1B}[2J\u{0085}w")
  #expect(lines == ["x", "public func injected() -> Int { 42 }", "y", "z\\u{1b}[2J", "w"])
}
