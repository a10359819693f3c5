// Foundation, not FoundationEssentials: `NSDecimalRound` is Foundation's. It
// is inlined into its callers, so the binary still links no part of Foundation
// beyond FoundationEssentials (`make release` checks).
import Foundation
import KioskCommands

/// `4.50`: money with two decimals, rounded half away from zero (as
/// `NSDecimalRound`'s `.plain` rounds). The amount becomes minor units with
/// integer arithmetic (`minorUnits(of:)`) and is written from them, so the hot
/// path does no `Decimal` arithmetic, no rounding and no `description` (which
/// alone costs about 12,000 instructions); an amount whose significand has 17
/// digits or more, or that is not a number, is rounded by `NSDecimalRound`, as
/// before. The one place the kiosk formats money: the command line's text and
/// JSON, and the payment audit's lines.
public func money(_ amount: Decimal) -> String {
  guard let units = minorUnits(of: amount) else { return moneyByDecimalRounding(amount) }
  return money(minorUnits: units)
}

/// `money` by `Decimal` arithmetic and `NSDecimalRound`: for the amounts
/// `minorUnits(of:)` cannot hold, and the reference its tests compare with.
public func moneyByDecimalRounding(_ amount: Decimal) -> String {
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
  private var known: [Decimal: (text: String, units: Int?)] = [:]

  /// An empty memory.
  public init() {}

  /// `money(amount)`, formatted the first time only.
  public mutating func text(_ amount: Decimal) -> String { money(amount).text }

  /// `money(amount)` and `exactMinorUnits(of: amount)`, worked out the first
  /// time only: a board sums its tabs' totals in whole cents, not `Decimal`s.
  public mutating func money(_ amount: Decimal) -> (text: String, units: Int?) {
    if let remembered = known[amount] { return remembered }
    let units = exactMinorUnits(of: amount)
    let entry = (text: units.map { KioskCommands.money(minorUnits: $0) } ?? KioskApp.money(amount), units: units)
    known[amount] = entry
    return entry
  }
}
