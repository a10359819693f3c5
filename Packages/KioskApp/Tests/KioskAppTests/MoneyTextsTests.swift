import Foundation
import KioskApp
import KioskCommands
import Testing
import _ServiceLinkerTestSupport

/// A remembered text is the text `money` gives, for equal amounts written
/// differently too (`4.5` and `4.50`), in any order of asking.
@Test func rememberedMoneyTextsAreWhatMoneyGives() {
  var random = SeededGenerator(seed: 4_50)
  var texts = MoneyTexts()
  for _ in 0..<5_000 {
    let cents = Int.random(in: -2_000...2_000, using: &random)
    let extraZeros = Int.random(in: 0...2, using: &random)
    var digits = Decimal(cents)
    for _ in 0..<extraZeros { digits *= 10 }
    let amount = Decimal(sign: digits < 0 ? .minus : .plus, exponent: -2 - extraZeros, significand: digits.magnitude)
    #expect(texts.text(amount) == money(amount), "\(amount)")
  }
  #expect(texts.text(Decimal(string: "4.5")!) == "4.50")
  #expect(texts.text(Decimal(string: "4.50")!) == "4.50")
}

/// Money through minor units is what `Decimal` rounding gives, for
/// amounts of any scale and sign, ties included, and amounts too large for
/// minor units in an `Int` still format (by `Decimal`).
@Test func moneyFromMinorUnitsIsWhatDecimalRoundingGives() {
  var random = SeededGenerator(seed: 12_345)
  var amounts: [Decimal] = [0, 1, -1, 4.5, 0.005, -0.005, 0.004, -0.004, 0.015, 99.995, -99.995, 0.1, 10]
  for _ in 0..<20_000 {
    let significand = Decimal(Int.random(in: -9_999_999_999...9_999_999_999, using: &random))
    let exponent = Int.random(in: -21...8, using: &random)
    amounts.append(
      Decimal(sign: significand < 0 ? .minus : .plus, exponent: exponent, significand: significand.magnitude))
  }
  for amount in amounts {
    #expect(money(amount) == moneyByDecimalRounding(amount), "\(amount)")
  }
  let huge = Decimal(string: "123456789012345678901234.567")!
  #expect(minorUnits(of: huge) == nil)
  #expect(money(huge) == "123456789012345678901234.57")
  #expect(money(.nan) == moneyByDecimalRounding(.nan))
  #expect(money(minorUnits: -5) == "-0.05")
  #expect(money(minorUnits: 123_456) == "1234.56")
  #expect(minorUnits(of: Decimal(string: "-2.675")!) == -268)
  #expect(minorUnits(of: Decimal(string: "92233720368547758.07")!) == nil)  // 19 digits: left to Decimal
  #expect(minorUnits(of: Decimal(sign: .plus, exponent: 30, significand: 1)) == nil)
}

/// Whole cents are known exactly, so a board can sum them; an amount with a
/// fraction of a cent has none (its text is still rounded), and sums fall back to `Decimal`.
@Test func onlyWholeCentsAreKnownAsMinorUnits() {
  var texts = MoneyTexts()
  #expect(texts.money(Decimal(string: "4.5")!) == ("4.50", 450))
  #expect(texts.money(Decimal(string: "-0.05")!) == ("-0.05", -5))
  #expect(texts.money(Decimal(string: "0.125")!) == ("0.13", nil))
  #expect(exactMinorUnits(of: Decimal(string: "12.340")!) == 1_234)
  #expect(exactMinorUnits(of: Decimal(string: "12.345")!) == nil)
  #expect(minorUnits(of: Decimal(string: "12.345")!) == 1_235)
}
