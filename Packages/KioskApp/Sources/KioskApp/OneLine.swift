/// Text for one line of a terminal or a log: an error that quotes what the
/// user typed (`unknown command '…'`) must not print a second line of its
/// own making (`opened tab #9`), nor move the cursor, recolour the screen or
/// reorder the line. `kiosk` and `kiosk-hq` write every error through it.
public enum OneLine {
  /// `text` with every control character (C0, DEL, C1), format character
  /// (a bidirectional override, a zero-width space) and line or paragraph
  /// separator written as an escape: `\n`, `\r`, `\t`, else `\u{1B}`. JSON
  /// lines pass unchanged: JSON escapes them already.
  public static func escaped(_ text: String) -> String {
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
    case .control, .format, .lineSeparator, .paragraphSeparator: true
    default: false
    }
  }
}
