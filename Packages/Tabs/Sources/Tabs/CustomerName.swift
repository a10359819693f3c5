import Foundation

/// The rules every customer name meets wherever it comes from (the command
/// line, a shell line, a scenario, a replay request): one line of printable
/// text, trimmed, of sane length, with something to see. So no name can break
/// a line of `board` or `history`, reach a terminal as an escape sequence,
/// reorder the text around it (bidirectional overrides) or print as nothing.
public enum CustomerName {
  /// The longest name, in characters.
  public static let maxCharacters = 64
  /// The longest name in UTF-8 bytes: a character may carry many combining marks.
  public static let maxBytes = 256

  /// Why a name was refused.
  public enum Refusal: Error, Equatable, Sendable {
    /// Nothing but spaces.
    case empty
    /// More than `maxCharacters` characters (the count).
    case tooLong(characters: Int)
    /// More than `maxBytes` bytes in UTF-8 (the count).
    case tooManyBytes(Int)
    /// A control, format (bidirectional override, zero-width space) or line-breaking character.
    case controlCharacter(UInt32)
    /// Only joiners and marks: it would print as nothing.
    case invisible

    /// The reason in words, about `what` ("a customer name").
    public func description(as what: String) -> String {
      switch self {
      case .empty: "\(what) is empty"
      case .tooLong(let count): "\(what) is \(count) characters long; the limit is \(maxCharacters)"
      case .tooManyBytes(let count): "\(what) is \(count) bytes long in UTF-8; the limit is \(maxBytes)"
      case .controlCharacter(let value):
        "\(what) contains the control or format character U+\(String(value, radix: 16, uppercase: true))"
      case .invisible: "\(what) has no visible character (only joiners or combining marks)"
      }
    }
  }

  /// `text` trimmed of spaces, or why it is not a name.
  public static func validated(_ text: String) throws(Refusal) -> String {
    // The common name is printable ASCII, where the only space is U+0020 and
    // every other byte is a visible character: the same rules, byte by byte,
    // without Foundation's trimming or the Unicode property tables.
    let bytes = text.utf8
    if bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
      guard let first = bytes.firstIndex(where: { $0 != 0x20 }), let last = bytes.lastIndex(where: { $0 != 0x20 })
      else { throw .empty }
      let count = bytes.distance(from: first, to: last) + 1
      guard count <= maxCharacters else { throw .tooLong(characters: count) }
      return String(decoding: bytes[first...last], as: UTF8.self)
    }
    return try validatedByUnicodeRules(text)
  }

  /// `validated` for any text: trimmed of Unicode whitespace, counted in
  /// characters, and checked scalar by scalar.
  static func validatedByUnicodeRules(_ text: String) throws(Refusal) -> String {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    guard !trimmed.isEmpty else { throw .empty }
    guard trimmed.count <= maxCharacters else { throw .tooLong(characters: trimmed.count) }
    guard trimmed.utf8.count <= maxBytes else { throw .tooManyBytes(trimmed.utf8.count) }
    if let bad = trimmed.unicodeScalars.first(where: isControl) { throw .controlCharacter(bad.value) }
    guard trimmed.unicodeScalars.contains(where: isVisible) else { throw .invisible }
    return trimmed
  }

  /// Control, format (bidirectional overrides, zero-width spaces) and line-breaking
  /// characters. The zero-width joiner stays: emoji sequences are made of it.
  private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    if scalar == "\u{200D}" { return false }
    switch scalar.properties.generalCategory {
    case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned: return true
    default: return false
    }
  }

  /// A scalar that prints as something: not a joiner, a mark or a space.
  private static func isVisible(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .spacingMark, .enclosingMark, .spaceSeparator, .format: return false
    default: return scalar != "\u{200D}"
    }
  }
}
