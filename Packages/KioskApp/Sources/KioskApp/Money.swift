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
