#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension Int {
  /// `decimal` as an `Int` when it is a whole number within `Int`'s range;
  /// nil for a fraction, a value past `Int` or NaN. Read from the decimal's
  /// own digits and exponent: no rounding, and no `NSDecimalNumber`, so
  /// FoundationEssentials is enough (a command path that links Foundation
  /// also links ICU and 50 MB more).
  public init?(wholeDecimal decimal: Decimal) {
    guard decimal.isFinite else { return nil }
    // decimal = ±significand × 10^exponent; the significand is whole, its text is its digits.
    guard let digits = UInt(decimal.significand.description) else { return nil }
    var magnitude = digits
    if decimal.exponent >= 0 {
      for _ in 0..<decimal.exponent where magnitude != 0 {
        let (product, overflow) = magnitude.multipliedReportingOverflow(by: 10)
        guard !overflow else { return nil }
        magnitude = product
      }
    } else {
      for _ in 0..<(-decimal.exponent) where magnitude != 0 {
        guard magnitude.isMultiple(of: 10) else { return nil }
        magnitude /= 10
      }
    }
    if decimal.sign == .minus {
      // `Int.min`'s magnitude is one past `Int.max`.
      guard magnitude <= Int.min.magnitude else { return nil }
      self = magnitude == Int.min.magnitude ? .min : -Int(magnitude)
    } else {
      guard let value = Int(exactly: magnitude) else { return nil }
      self = value
    }
  }
}
