import Foundation

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

/// `4.50` for 450: minor units (cents) as money with two decimals.
public func money(minorUnits units: Int) -> String {
  let whole = units.magnitude / 100
  let cents = units.magnitude % 100
  return (units < 0 ? "-" : "") + String(whole) + (cents < 10 ? ".0" : ".") + String(cents)
}

/// The largest significand `minorUnits(of:)` reads as an integer: 17 digits
/// and more are left to `Decimal`.
private let significandLimit = Decimal(sign: .plus, exponent: 17, significand: 1)

/// 10^0 through 10^18.
private let powersOfTen: [Int] = (0...18).map { power in (0..<power).reduce(1) { value, _ in value * 10 } }

/// `amount` in minor units (cents), rounded half away from zero: its
/// significand read as an integer, scaled by its exponent. Nil when the
/// significand has 17 digits or more, the result does not fit an `Int`, or
/// the amount is not a number.
public func minorUnits(of amount: Decimal) -> Int? {
  minorUnits(of: amount, exactOnly: false)
}

/// `amount` in minor units when it is a whole number of them (no rounding);
/// nil otherwise. Sums of these are exact, as the sums of the amounts are.
public func exactMinorUnits(of amount: Decimal) -> Int? {
  minorUnits(of: amount, exactOnly: true)
}

private func minorUnits(of amount: Decimal, exactOnly: Bool) -> Int? {
  guard amount.isFinite else { return nil }
  let significand = amount.significand
  guard significand < significandLimit else { return nil }
  let digits = Int(NSDecimalNumber(decimal: significand).int64Value)
  // amount = ±digits × 10^exponent, so cents = digits × 10^(exponent + 2).
  let shift = amount.exponent + 2
  var magnitude: Int
  if shift >= 0 {
    guard shift <= 18 else { return digits == 0 ? 0 : nil }
    let (product, overflow) = digits.multipliedReportingOverflow(by: powersOfTen[shift])
    guard !overflow else { return nil }
    magnitude = product
  } else if -shift > 18 {
    guard !exactOnly || digits == 0 else { return nil }
    magnitude = 0  // below 10^17 × 10^-19: less than half a cent
  } else {
    let divisor = powersOfTen[-shift]
    magnitude = digits / divisor
    let remainder = digits % divisor
    guard !exactOnly || remainder == 0 else { return nil }
    if remainder * 2 >= divisor { magnitude += 1 }
  }
  return amount.sign == .minus ? -magnitude : magnitude
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
    let entry = (text: units.map { KioskApp.money(minorUnits: $0) } ?? KioskApp.money(amount), units: units)
    known[amount] = entry
    return entry
  }
}
