/// The identifiers and string literals of Swift source, with their positions;
/// comments skipped, string contents kept apart from code. Enough of Swift's
/// lexical grammar for the perimeter check to read real names, not text: a
/// world named in a comment or a string is not a use of it.
struct SwiftTokens {
  /// One identifier or string literal, at a 1-based line and column.
  struct Token: Equatable {
    enum Kind: Equatable {
      case identifier
      case string
    }
    var kind: Kind
    var text: String
    var line: Int
    var column: Int
  }

  private(set) var tokens: [Token] = []
  /// The comments and string literals, as ranges of the source's unicode scalars.
  private(set) var notCode: [Range<Int>] = []

  init(_ source: String) {
    let scalars = Array(source.unicodeScalars)
    var index = 0
    var line = 1
    var column = 1
    func advance(_ count: Int = 1) {
      for _ in 0..<count where index < scalars.count {
        if scalars[index] == "\n" {
          line += 1
          column = 1
        } else {
          column += 1
        }
        index += 1
      }
    }
    func at(_ offset: Int) -> Unicode.Scalar? { index + offset < scalars.count ? scalars[index + offset] : nil }
    // ASCII answered without Unicode's property tables: nearly every scalar of
    // Swift source is ASCII, and the lookups were most of a large `check`.
    func isHead(_ scalar: Unicode.Scalar) -> Bool {
      guard scalar.isASCII else { return scalar.properties.isXIDStart }
      let value = scalar.value | 0x20  // folds upper case onto lower case
      return scalar == "_" || (value >= 0x61 && value <= 0x7A)
    }
    func isBody(_ scalar: Unicode.Scalar) -> Bool {
      guard scalar.isASCII else { return scalar.properties.isXIDContinue }
      return isHead(scalar) || (scalar.value >= 0x30 && scalar.value <= 0x39)
    }

    while index < scalars.count {
      let scalar = scalars[index]
      let start = index
      if scalar == "/", at(1) == "/" {
        while index < scalars.count, scalars[index] != "\n" { advance() }
        notCode.append(start..<index)
      } else if scalar == "/", at(1) == "*" {
        var depth = 0
        repeat {
          if at(0) == "/", at(1) == "*" {
            depth += 1
            advance(2)
          } else if at(0) == "*", at(1) == "/" {
            depth -= 1
            advance(2)
          } else {
            advance()
          }
        } while depth > 0 && index < scalars.count
        notCode.append(start..<index)
      } else if scalar == "#" || scalar == "\"" {
        // A string literal: raw (`#"…"#`), multi-line (`"""…"""`) or plain.
        var hashes = 0
        while at(hashes) == "#" { hashes += 1 }
        guard at(hashes) == "\"" else {
          advance(max(hashes, 1))
          continue
        }
        let (startLine, startColumn) = (line, column)
        advance(hashes)
        let multiLine = at(0) == "\"" && at(1) == "\"" && at(2) == "\""
        advance(multiLine ? 3 : 1)
        var text = String.UnicodeScalarView()
        while index < scalars.count {
          let closes = multiLine ? (at(0) == "\"" && at(1) == "\"" && at(2) == "\"") : at(0) == "\""
          if closes, (0..<hashes).allSatisfy({ at((multiLine ? 3 : 1) + $0) == "#" }) {
            advance((multiLine ? 3 : 1) + hashes)
            break
          }
          if at(0) == "\\", (0..<hashes).allSatisfy({ at(1 + $0) == "#" }), at(1 + hashes) == "(" {
            // An interpolation: code inside a string. Lex it as code.
            advance(2 + hashes)
            let (codeLine, codeColumn) = (line, column)
            var code = String.UnicodeScalarView()
            var depth = 1
            while let current = at(0) {
              if current == "(" { depth += 1 }
              if current == ")" {
                depth -= 1
                if depth == 0 { break }
              }
              code.append(current)
              advance()
            }
            advance()
            for inner in SwiftTokens(String(code)).tokens {
              var moved = inner
              moved.column = inner.line == 1 ? inner.column + codeColumn - 1 : inner.column
              moved.line = inner.line + codeLine - 1
              tokens.append(moved)
            }
            continue
          }
          if at(0) == "\\", hashes == 0, let next = at(1) {
            text.append(next)
            advance(2)
            continue
          }
          if !multiLine, at(0) == "\n" { break }
          text.append(scalars[index])
          advance()
        }
        tokens.append(Token(kind: .string, text: String(text), line: startLine, column: startColumn))
        notCode.append(start..<index)
      } else if scalar == "`", let next = at(1), isHead(next) {
        advance()
        let (startLine, startColumn) = (line, column)
        let first = index
        while let current = at(0), isBody(current) { advance() }
        let text = Self.text(scalars[first..<index])
        if at(0) == "`" { advance() }
        tokens.append(Token(kind: .identifier, text: text, line: startLine, column: startColumn))
      } else if isHead(scalar) {
        let (startLine, startColumn) = (line, column)
        while let current = at(0), isBody(current) { advance() }
        tokens.append(
          Token(kind: .identifier, text: Self.text(scalars[start..<index]), line: startLine, column: startColumn))
      } else if isBody(scalar) {
        // A number or the tail of one: not a name.
        while let current = at(0), isBody(current) { advance() }
      } else {
        advance()
      }
    }
  }

  /// The text of an identifier: ASCII (nearly every one) written as bytes at
  /// once, rather than appended scalar by scalar.
  private static func text(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
    guard scalars.allSatisfy(\.isASCII) else { return String(String.UnicodeScalarView(scalars)) }
    return String(unsafeUninitializedCapacity: scalars.count) { buffer in
      for (offset, scalar) in zip(buffer.indices, scalars) { buffer[offset] = UInt8(truncatingIfNeeded: scalar.value) }
      return scalars.count
    }
  }

  /// `source` with its comments and string literals (interpolations included)
  /// replaced by spaces, its newlines kept: what is left is code, at the same
  /// lines, for the checks that look for declarations with patterns.
  static func code(of source: String) -> String {
    var scalars = Array(source.unicodeScalars)
    for range in SwiftTokens(source).notCode {
      for index in range where scalars[index] != "\n" { scalars[index] = " " }
    }
    var code = String.UnicodeScalarView()
    code.append(contentsOf: scalars)
    return String(code)
  }

  /// `import X` (also `@testable import X`, `import struct X.Y`): each imported module.
  var imports: [Token] {
    var result: [Token] = []
    let kinds: Set<String> = ["struct", "class", "enum", "protocol", "typealias", "func", "let", "var", "actor"]
    for (offset, token) in tokens.enumerated() where token.kind == .identifier && token.text == "import" {
      var next = offset + 1
      if next < tokens.count, kinds.contains(tokens[next].text) { next += 1 }
      if next < tokens.count, tokens[next].kind == .identifier { result.append(tokens[next]) }
    }
    return result
  }

  /// The string after each `path:` label (`.package(path: "../Menu")`).
  var pathArguments: [Token] {
    zip(tokens, tokens.dropFirst()).compactMap { label, value in
      label.kind == .identifier && label.text == "path" && value.kind == .string ? value : nil
    }
  }
}
