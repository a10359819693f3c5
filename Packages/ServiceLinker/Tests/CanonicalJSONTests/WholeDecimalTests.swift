import CanonicalJSON
import Foundation
import Testing

@Test func aWholeDecimalIsItsIntAndAFractionOrAnOverflowIsNone() throws {
  let wholes: [(String, Int)] = [
    ("0", 0), ("-0", 0), ("7", 7), ("-7", -7), ("450", 450), ("4.50e2", 450), ("1e18", 1_000_000_000_000_000_000),
    ("9223372036854775807", Int.max), ("-9223372036854775808", Int.min), ("12.000", 12),
    ("1000000000000000", 1_000_000_000_000_000),
  ]
  for (text, expected) in wholes {
    let decimal = try #require(Decimal(string: text))
    // `NSDecimalNumber`, which the command path no longer loads, is the oracle where it is exact.
    #expect(Int(wholeDecimal: decimal) == expected, "\(text)")
    #expect(Int(wholeDecimal: decimal) == NSDecimalNumber(decimal: decimal).intValue, "\(text)")
  }
  for text in ["0.5", "-4.51", "1e19", "9223372036854775808", "-9223372036854775809", "1e-30", "123456789.000000001"] {
    let decimal = try #require(Decimal(string: text))
    #expect(Int(wholeDecimal: decimal) == nil, "\(text)")
  }
  #expect(Int(wholeDecimal: .nan) == nil)
}
