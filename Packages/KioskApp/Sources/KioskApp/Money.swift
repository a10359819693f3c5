import Foundation

/// `4.50`: money with two decimals, rounded half up, computed in `Decimal`.
/// The one place the kiosk formats money: the command line's text and JSON,
/// and the payment audit's lines.
public func money(_ amount: Decimal) -> String {
  var scaled = amount * 100
  var rounded = Decimal()
  NSDecimalRound(&rounded, &scaled, 0, .plain)
  let text = rounded.description
  let negative = text.hasPrefix("-")
  let digits = String(negative ? text.dropFirst() : text[...])
  let padded = String(repeating: "0", count: max(0, 3 - digits.count)) + digits
  return "\(negative ? "-" : "")\(padded.dropLast(2)).\(padded.suffix(2))"
}

/// `money`, remembered: a board formats every tab's total, and a day's tabs
/// share a few dozen totals, so each distinct amount is formatted once.
/// `money` depends only on the amount's value (equal amounts, as `4.5` and
/// `4.50`, give one text), so the text remembered is the text `money` gives.
public struct MoneyTexts {
  private var texts: [Decimal: String] = [:]

  /// An empty memory.
  public init() {}

  /// `money(amount)`, formatted the first time only.
  public mutating func text(_ amount: Decimal) -> String {
    if let known = texts[amount] { return known }
    let text = money(amount)
    texts[amount] = text
    return text
  }
}
