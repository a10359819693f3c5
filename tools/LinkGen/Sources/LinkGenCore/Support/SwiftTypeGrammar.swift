/// A recursive-descent reader of Swift's type grammar, as much of it as a
/// manifest may use: named types with generic arguments (`Set<String>`,
/// `Tab.ID`), optionals, arrays and dictionaries, tuples, function types with
/// `async`, `throws` and `throws(E)`, `any P`, `some P`, compositions `P & Q`,
/// metatypes, and the attributes `@escaping` / `@Sendable`. A parameter's type
/// may also carry `borrowing`, `consuming` or `sending`.
///
/// One grammar for every type the manifest names, so `[StockState:]` and
/// `StockState, Int` are refused and `any Error` and `(Int, Int)` are not.
struct SwiftTypeGrammar {
  private let tokens: [String]
  private var position = 0

  /// Whether `text` is one whole Swift type (`parameter`: as a parameter's type).
  static func accepts(_ text: String, parameter: Bool = false) -> Bool {
    guard let tokens = tokenize(text), !tokens.isEmpty else { return false }
    var reader = SwiftTypeGrammar(tokens: tokens)
    if parameter, let first = reader.peek, ["borrowing", "consuming", "sending"].contains(first) {
      reader.position += 1
    }
    return reader.type() && reader.position == tokens.count
  }

  private init(tokens: [String]) { self.tokens = tokens }

  private var peek: String? { position < tokens.count ? tokens[position] : nil }

  private mutating func take(_ token: String) -> Bool {
    guard peek == token else { return false }
    position += 1
    return true
  }

  private mutating func type() -> Bool {
    while let token = peek, token.hasPrefix("@") {
      guard ["@escaping", "@Sendable", "@MainActor", "@autoclosure"].contains(token) else { return false }
      position += 1
    }
    if take("any") || take("some") { return composition() }
    return composition()
  }

  private mutating func composition() -> Bool {
    guard postfix() else { return false }
    while take("&") { guard postfix() else { return false } }
    return true
  }

  private mutating func postfix() -> Bool {
    guard primary() else { return false }
    while true {
      // `!` (implicitly unwrapped) is left out: it is legal in few places and never needed here.
      if take("?") { continue }
      if peek == ".", position + 1 < tokens.count, ["Type", "Protocol"].contains(tokens[position + 1]) {
        position += 2
        continue
      }
      return true
    }
  }

  private mutating func primary() -> Bool {
    if take("[") {
      guard type() else { return false }
      if take(":") { guard type() else { return false } }
      return take("]")
    }
    if take("(") {
      if !take(")") {
        repeat {
          // A label: `name: Type` (or `_ name: Type` in a function type).
          if let label = peek, Self.isIdentifier(label), position + 1 < tokens.count {
            if tokens[position + 1] == ":" {
              position += 2
            } else if label == "_" || Self.isIdentifier(tokens[position + 1]), position + 2 < tokens.count,
              tokens[position + 2] == ":"
            {
              position += 3
            }
          }
          if let modifier = peek, ["borrowing", "consuming", "inout", "sending"].contains(modifier) { position += 1 }
          guard type() else { return false }
        } while take(",")
        guard take(")") else { return false }
      }
      // A function type: `(…) async throws(E) -> R`.
      _ = take("async")
      if take("throws") {
        if take("(") {
          guard type(), take(")") else { return false }
        }
      }
      if take("->") { return type() }
      return true
    }
    guard named() else { return false }
    while peek == ".", position + 1 < tokens.count, !["Type", "Protocol"].contains(tokens[position + 1]) {
      position += 1
      guard named() else { return false }
    }
    return true
  }

  private mutating func named() -> Bool {
    guard let name = peek, Self.isIdentifier(name) || name == "Self" || name == "Any" else { return false }
    position += 1
    if take("<") {
      repeat { guard type() else { return false } } while take(",")
      return take(">")
    }
    return true
  }

  private static func isIdentifier(_ text: String) -> Bool {
    text == "_" || (SwiftIdentifier.problem(with: text) == nil)
  }

  /// Words, `@attributes`, `->`, and one-character punctuation; nil for a character no type uses.
  private static func tokenize(_ text: String) -> [String]? {
    var tokens: [String] = []
    var index = text.startIndex
    while index < text.endIndex {
      let character = text[index]
      if character == " " {
        index = text.index(after: index)
      } else if text[index...].hasPrefix("->") {
        tokens.append("->")
        index = text.index(index, offsetBy: 2)
      } else if "[]<>():?,.&".contains(character) {
        tokens.append(String(character))
        index = text.index(after: index)
      } else if character == "@" || character == "_" || character.isLetter {
        var end = text.index(after: index)
        while end < text.endIndex, text[end] == "_" || text[end].isLetter || text[end].isNumber {
          end = text.index(after: end)
        }
        tokens.append(String(text[index..<end]))
        index = end
      } else {
        return nil
      }
    }
    return tokens
  }
}
