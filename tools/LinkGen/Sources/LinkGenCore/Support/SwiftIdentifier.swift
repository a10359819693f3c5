/// Checks names from the manifest before they become Swift declarations.
public enum SwiftIdentifier {

  /// Keywords that cannot name a type or a property without backticks.
  public static let keywords: Set<String> = [
    "associatedtype", "borrowing", "class", "consuming", "deinit", "enum", "extension",
    "fileprivate", "func", "import", "init", "inout", "internal", "let", "nonisolated",
    "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows",
    "static", "struct", "subscript", "typealias", "var", "break", "case", "catch",
    "continue", "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in",
    "repeat", "return", "throw", "switch", "where", "while", "Any", "as", "await", "false",
    "is", "nil", "self", "Self", "super", "throws", "true", "try", "_",
  ]

  /// Why `name` cannot be a Swift identifier, or nil when it can.
  public static func problem(with name: String) -> String? {
    guard let first = name.unicodeScalars.first else { return "an empty name is not a Swift identifier" }
    if keywords.contains(name) { return "'\(name)' is a Swift keyword" }
    let isHead: (Unicode.Scalar) -> Bool = { $0 == "_" || $0.properties.isXIDStart }
    let isBody: (Unicode.Scalar) -> Bool = { $0 == "_" || $0.properties.isXIDContinue }
    guard isHead(first), name.unicodeScalars.dropFirst().allSatisfy(isBody) else {
      return "'\(name)' is not a Swift identifier"
    }
    return nil
  }

  /// Why `text` cannot be a Swift type, or nil when it looks like one.
  ///
  /// Accepts dotted names and the sugar a demand needs (`[Int]`, `[K: V]`,
  /// `Int?`, `Set<String>`); the compiler has the last word on the rest.
  public static func typeProblem(with text: String) -> String? {
    let allowed = Set("[]<>:?,. ")
    let words = text.split(whereSeparator: { allowed.contains($0) }).map(String.init)
    guard !words.isEmpty, text.first != " ", text.last != " " else { return "'\(text)' is not a Swift type" }
    for word in words where problem(with: word) != nil && !(word == "Any" || word == "Self") {
      return "'\(text)' is not a Swift type"
    }
    return balanced(text) && !hasAdjacentWords(text) ? nil : "'\(text)' is not a Swift type"
  }

  /// `Stock State`: two names with only spaces between them.
  private static func hasAdjacentWords(_ text: String) -> Bool {
    var previous: Character?
    var sawSpace = false
    for character in text {
      if character == " " {
        sawSpace = true
        continue
      }
      let isWord = character.isLetter || character.isNumber || character == "_"
      if sawSpace, isWord, let previous, previous.isLetter || previous.isNumber || previous == "_" || previous == "?" {
        return true
      }
      previous = character
      sawSpace = false
    }
    return false
  }

  private static func balanced(_ text: String) -> Bool {
    var stack: [Character] = []
    for character in text {
      switch character {
      case "[", "<": stack.append(character)
      case "]": guard stack.popLast() == "[" else { return false }
      case ">": guard stack.popLast() == "<" else { return false }
      default: break
      }
    }
    return stack.isEmpty
  }

  /// `Menu` → `menu`, `URLCache` → `urlCache`: the default property of a domain.
  public static func lowerCamel(_ name: String) -> String {
    let scalars = Array(name)
    var prefix = 0
    while prefix < scalars.count, scalars[prefix].isUppercase { prefix += 1 }
    // In `URLCache` the last capital starts the next word.
    let lowered = prefix > 1 && prefix < scalars.count ? prefix - 1 : max(prefix, 1)
    return scalars.prefix(lowered).map { $0.lowercased() }.joined() + String(scalars.dropFirst(lowered))
  }
}
