/// Text for one line of a terminal or a log: an error that quotes what the
/// user typed (`unknown command '…'`) must not print a second line of its
/// own making (`opened tab #9`), nor move the cursor or recolour the screen.
enum OneLine {
  /// `text` with every control character (C0, DEL, C1) and line or
  /// paragraph separator written as an escape: `\n`, `\r`, `\t`, else
  /// `\u{1B}`. JSON lines pass unchanged: JSON escapes them already.
  static func escaped(_ text: String) -> String {
    guard text.unicodeScalars.contains(where: needsEscape) else { return text }
    var line = ""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\n": line += "\\n"
      case "\r": line += "\\r"
      case "\t": line += "\\t"
      case _ where needsEscape(scalar): line += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
      default: line.unicodeScalars.append(scalar)
      }
    }
    return line
  }

  private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.properties.generalCategory {
    case .control, .lineSeparator, .paragraphSeparator: true
    default: false
    }
  }
}
