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

  /// Why `text` cannot be a Swift type, or nil when it is one (by
  /// `SwiftTypeGrammar`; the compiler still decides whether the names exist).
  public static func typeProblem(with text: String, parameter: Bool = false) -> String? {
    SwiftTypeGrammar.accepts(text, parameter: parameter) ? nil : "'\(text)' is not a Swift type"
  }

  /// Names a member (a capability's property, a stored link) cannot have in
  /// generated code, beyond the keywords: they mean something after a dot.
  public static let reservedMemberNames: Set<String> = ["Type", "Protocol", "init", "deinit", "subscript"]

  /// Modules of the toolchain: a domain named like one would shadow it.
  public static let toolchainModules: Set<String> = [
    "Swift", "Foundation", "FoundationEssentials", "FoundationInternationalization", "Testing", "XCTest",
    "Observation", "Synchronization", "Dispatch", "Glibc", "Musl", "Darwin", "CoreFoundation", "Distributed",
    "RegexBuilder", "Cxx",
  ]

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
