import Foundation
import Testing

@testable import Tabs

@Test(arguments: [
  ("", CustomerName.Refusal.empty),
  ("   ", .empty),
  ("Ada\nBob", .controlCharacter(0x0A)),
  ("\u{1B}[31mRed", .controlCharacter(0x1B)),
  ("Eve\u{202E}", .controlCharacter(0x202E)),
  ("Ze\u{200B}d", .controlCharacter(0x200B)),
  ("Ada\u{E0069}\u{E0067}", .controlCharacter(0xE0069)),
  ("\u{E007F}Ada", .controlCharacter(0xE007F)),
  ("🏴\u{E0067}\u{E007F}\u{E0067}", .controlCharacter(0xE0067)),
  ("🏴" + String(repeating: "\u{E0061}", count: 8) + "\u{E007F}", .controlCharacter(0xE0061)),
  ("Ada🏴\u{E0070}\u{E0061}\u{E0079}\u{E007F}", .controlCharacter(0xE0070)),  // "pay": no flag Unicode recommends
  ("Ada🏴\u{E0050}\u{E0057}\u{E007F}", .controlCharacter(0xE0050)),  // capitals are no subdivision
  ("Ada🏴\u{E0067}\u{E0062}", .controlCharacter(0xE0067)),  // no cancel tag
  ("Ada🏴\u{E007F}", .controlCharacter(0xE007F)),
  ("\u{200D}", .invisible),
  ("\u{200D}\u{301}\u{301}", .invisible),
  ("\u{3164}", .invisible),  // Hangul filler
  ("\u{2800}\u{2800}", .invisible),  // blank Braille pattern
  ("\u{115F}\u{FE0F}", .invisible),  // Hangul choseong filler, variation selector
  (String(repeating: "a", count: 65), .tooLong(characters: 65)),
  ("a" + String(repeating: "\u{301}", count: 300), .tooManyBytes(601)),
])
func aNameThatCouldBreakALineOrPrintAsNothingIsRefused(name: String, refusal: CustomerName.Refusal) {
  #expect(throws: refusal) { try CustomerName.validated(name) }
}

@Test func aNameIsTrimmedAndEmojiSequencesAndAccentsAreNames() throws {
  #expect(try CustomerName.validated("  Grace Hopper ") == "Grace Hopper")
  #expect(try CustomerName.validated("👨‍👩‍👧 Family") == "👨‍👩‍👧 Family")
  #expect(try CustomerName.validated("Zoë") == "Zoë")
  // A zero-width non-joiner (Persian) and a subdivision flag's tag characters are parts of names.
  #expect(try CustomerName.validated("علی\u{200C}رضا") == "علی\u{200C}رضا")
  for flag in ["\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}", "\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}"] {
    #expect(try CustomerName.validated("🏴\(flag)\u{E007F} Fan").hasSuffix(" Fan"))
  }
  #expect(try CustomerName.validated(String(repeating: "a", count: 64)).count == 64)
}

/// The printable-ASCII fast path gives every answer the general rules give:
/// random strings of printable ASCII, spaces and a tab (which leaves the fast path).
@Test func printableASCIINamesGetTheSameAnswerAsTheGeneralRules() {
  var random = SystemRandomNumberGenerator()
  let alphabet = Array(" \t~!aZ09") + (0x20..<0x7F).map { Character(Unicode.Scalar(UInt8($0))) }
  for _ in 0..<2_000 {
    let length = Int.random(in: 0...70, using: &random)
    let name = String((0..<length).map { _ in alphabet.randomElement(using: &random)! })
    let fast = Result { () throws(CustomerName.Refusal) in try CustomerName.validated(name) }
    let general = Result { () throws(CustomerName.Refusal) in try CustomerName.validatedByUnicodeRules(name) }
    #expect(fast == general, "\(name.debugDescription)")
  }
}

@Test func namesAreTrimmedOfTheSpacesFoundationTrimsAndOfNothingElse() {
  // Foundation's `CharacterSet.whitespaces` is the oracle the command path no longer loads.
  let spaces = [
    "\t", " ", "\u{A0}", "\u{1680}", "\u{2000}", "\u{2009}", "\u{200A}", "\u{202F}", "\u{205F}", "\u{3000}", "\u{200B}",
  ]
  let notSpaces = ["\n", "\r", "\u{B}", "\u{85}", "\u{2028}", "\u{FEFF}", "\u{301}", "x"]
  var texts = ["", "Ada", "A d a", "🏴‍☠️"]
  for space in spaces + notSpaces {
    texts += [space, space + "Ada", "Ada" + space, space + "A" + space + "b" + space, space + space]
  }
  for text in texts {
    #expect(
      CustomerName.trimmedOfSpaces(text) == text.trimmingCharacters(in: .whitespaces),
      "\(text.unicodeScalars.map { String($0.value, radix: 16) })")
  }
}
