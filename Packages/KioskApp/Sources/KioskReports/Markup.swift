import Foundation

/// Text and numbers as they go into the page's HTML and SVG.
enum Markup {
  /// `text` with the characters HTML gives meaning escaped, for element text and
  /// attribute values alike.
  static func escaped(_ text: String) -> String {
    var result = ""
    result.reserveCapacity(text.count)
    for character in text {
      switch character {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      case "'": result += "&#39;"
      default: result.append(character)
      }
    }
    return result
  }

  /// A coordinate with one decimal, without a trailing `.0`: the same bytes for
  /// the same report on every machine.
  static func coordinate(_ value: Double) -> String {
    let tenths = (value * 10).rounded()
    let whole = Int(tenths) / 10
    let fraction = abs(Int(tenths) % 10)
    let sign = tenths < 0 && whole == 0 ? "-" : ""
    return fraction == 0 ? "\(sign)\(whole)" : "\(sign)\(whole).\(fraction)"
  }

  /// `value` as a `Double`, for geometry only: every number a reader sees is the till's `money()`.
  static func magnitude(_ value: Decimal) -> Double { NSDecimalNumber(decimal: value).doubleValue }
}
