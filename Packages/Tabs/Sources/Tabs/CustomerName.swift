#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

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
    /// Only joiners, marks and blank letters (a Hangul filler, the blank
    /// Braille pattern): it would print as nothing.
    case invisible

    /// The reason in words, about `what` ("a customer name").
    public func description(as what: String) -> String {
      switch self {
      case .empty: "\(what) is empty"
      case .tooLong(let count): "\(what) is \(count) characters long; the limit is \(maxCharacters)"
      case .tooManyBytes(let count): "\(what) is \(count) bytes long in UTF-8; the limit is \(maxBytes)"
      case .controlCharacter(let value):
        "\(what) contains the control or format character U+\(String(value, radix: 16, uppercase: true))"
      case .invisible: "\(what) has no visible character (only joiners, combining marks or blank letters)"
      }
    }
  }

  /// `text` trimmed of spaces, or why it is not a name.
  public static func validated(_ text: String) throws(Refusal) -> String {
    // The common name is printable ASCII, where the only space is U+0020 and
    // every other byte is a visible character: the same rules, byte by byte,
    // without Foundation's trimming or the Unicode property tables.
    // A native string's bytes are contiguous; the rare bridged one takes the Unicode path.
    let ascii = text.utf8.withContiguousStorageIfAvailable(printableASCIIBounds) ?? .notASCII
    switch ascii {
    case .notASCII: return try validatedByUnicodeRules(text)
    case .blank: throw .empty
    case .trimmed(let range):
      guard range.count <= maxCharacters else { throw .tooLong(characters: range.count) }
      // Most names need no trimming: the text itself, not a copy of it.
      if range.count == text.utf8.count { return text }
      return String(decoding: text.utf8.dropFirst(range.lowerBound).prefix(range.count), as: UTF8.self)
    }
  }

  /// What the ASCII fast path found in a name's bytes.
  private enum ASCIIBounds {
    /// A byte outside printable ASCII: the Unicode rules decide.
    case notASCII
    /// Printable ASCII, all spaces.
    case blank
    /// Printable ASCII; the offsets of the name without its outer spaces.
    case trimmed(Range<Int>)
  }

  private static func printableASCIIBounds(_ bytes: UnsafeBufferPointer<UInt8>) -> ASCIIBounds {
    var first = -1
    var last = -1
    for (offset, byte) in bytes.enumerated() {
      guard byte >= 0x20 && byte < 0x7F else { return .notASCII }
      if byte != 0x20 {
        if first < 0 { first = offset }
        last = offset
      }
    }
    return first < 0 ? .blank : .trimmed(first..<last + 1)
  }

  /// `text` without the spaces around it: tabs, Unicode's space separators
  /// (category Zs) and the zero width space, scalar by scalar, as Foundation's
  /// `CharacterSet.whitespaces` trims (which the command path does not load).
  static func trimmedOfSpaces(_ text: String) -> String {
    func isSpace(_ scalar: Unicode.Scalar) -> Bool {
      scalar == "\t" || scalar == "\u{200B}" || scalar.properties.generalCategory == .spaceSeparator
    }
    let scalars = text.unicodeScalars
    guard let first = scalars.firstIndex(where: { !isSpace($0) }), let last = scalars.lastIndex(where: { !isSpace($0) })
    else { return "" }
    return String(scalars[first...last])
  }

  /// `validated` for any text: trimmed of Unicode whitespace, counted in
  /// characters, and checked scalar by scalar.
  static func validatedByUnicodeRules(_ text: String) throws(Refusal) -> String {
    let trimmed = trimmedOfSpaces(text)
    guard !trimmed.isEmpty else { throw .empty }
    guard trimmed.count <= maxCharacters else { throw .tooLong(characters: trimmed.count) }
    guard trimmed.utf8.count <= maxBytes else { throw .tooManyBytes(trimmed.utf8.count) }
    if let bad = trimmed.unicodeScalars.first(where: isControl) ?? strayTag(in: trimmed) {
      throw .controlCharacter(bad.value)
    }
    guard trimmed.unicodeScalars.contains(where: isVisible) else { throw .invisible }
    return trimmed
  }

  /// Control, format (bidirectional overrides, zero-width spaces) and line-breaking
  /// characters. Three kinds of format character stay, since names are written
  /// with them and they neither move nor hide text: the zero-width joiner (emoji
  /// sequences), the zero-width non-joiner (Persian and other scripts) and the
  /// tag characters of a subdivision flag (🏴󠁧󠁢󠁳󠁣󠁴󠁿).
  private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    if scalar == "\u{200D}" || scalar == "\u{200C}" || (0xE0020...0xE007F).contains(scalar.value) { return false }
    switch scalar.properties.generalCategory {
    case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned: return true
    default: return false
    }
  }

  /// The subdivision flags Unicode recommends for display (England, Scotland,
  /// Wales): the only ones a name may hold, so no tag carries text no one sees.
  static let subdivisionFlags: Set<String> = ["gbeng", "gbsct", "gbwls"]

  /// The first tag character outside a recommended subdivision flag (U+1F3F4,
  /// the tags of `gbeng`, `gbsct` or `gbwls`, the cancel tag U+E007F). Tags
  /// print as nothing, so any other use of them would carry hidden text.
  private static func strayTag(in text: String) -> Unicode.Scalar? {
    var previous: Unicode.Scalar?
    var tags: [Unicode.Scalar] = []  // the tags read after a black flag, before its cancel tag
    for scalar in text.unicodeScalars {
      defer { previous = scalar }
      let isTag = (0xE0000...0xE007F).contains(scalar.value)
      if tags.isEmpty {
        guard isTag else { continue }
        guard previous == "\u{1F3F4}", scalar != "\u{E007F}" else { return scalar }
        tags = [scalar]
      } else if scalar == "\u{E007F}" {
        let name = String(String.UnicodeScalarView(tags.compactMap { Unicode.Scalar($0.value - 0xE0000) }))
        guard subdivisionFlags.contains(name) else { return tags[0] }
        tags = []
      } else {
        guard isTag, tags.count < 5 else { return tags[0] }
        tags.append(scalar)
      }
    }
    return tags.first
  }

  /// A scalar that can change what is printed around a name: a control
  /// character (a line break, an escape sequence), a line or paragraph
  /// separator, or a bidirectional control that reorders the text after it.
  /// `kiosk verify` fails on a stored name holding one; other characters the
  /// rules refuse today may come from before them, and cannot forge a line.
  public static func rewritesOutput(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
    default: break
    }
    switch scalar.properties.generalCategory {
    case .control, .lineSeparator, .paragraphSeparator: return true
    default: return false
    }
  }

  /// A scalar that prints as something: not a joiner, a mark or a space.
  private static func isVisible(_ scalar: Unicode.Scalar) -> Bool {
    // Blank letters: the Hangul fillers (ignorable by default, as variation
    // selectors are) and the blank Braille pattern print as nothing.
    if scalar.properties.isDefaultIgnorableCodePoint || scalar == "\u{2800}" { return false }
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .spacingMark, .enclosingMark, .spaceSeparator, .format: return false
    default: return scalar != "\u{200D}"
    }
  }
}
