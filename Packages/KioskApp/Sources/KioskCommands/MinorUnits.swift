#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

// Money as minor units (cents) by integer arithmetic: the command line
// formats amounts from them, and the journal writes them (docs/replay.md,
// "Money"), so neither does `Decimal` arithmetic or rounding on its hot path.

/// The largest significand `minorUnits(of:)` reads as an integer: 17 digits
/// and more are left to `Decimal`.
private let significandLimit = Decimal(sign: .plus, exponent: 17, significand: 1)

/// 10^0 through 10^18.
private let powersOfTen: [Int] = (0...18).map { power in (0..<power).reduce(1) { value, _ in value * 10 } }

/// `4.50` for 450: minor units (cents) as money with two decimals.
public func money(minorUnits units: Int) -> String {
  let whole = units.magnitude / 100
  let cents = units.magnitude % 100
  return (units < 0 ? "-" : "") + String(whole) + (cents < 10 ? ".0" : ".") + String(cents)
}

/// `amount` with two decimals when it is a whole number of cents (`875.00`),
/// and every digit it has otherwise (`4.555`): for messages that compare two
/// amounts, where rounding could hide their difference and `875` could be
/// read as minor units.
public func exactMoney(_ amount: Decimal) -> String {
  exactMinorUnits(of: amount).map { money(minorUnits: $0) } ?? amount.description
}

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
  // Whole and under the limit: its text is its digits (no `NSDecimalNumber` on the command path).
  guard let digits = Int(significand.description) else { return nil }
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
