import Foundation
import KioskApp
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
