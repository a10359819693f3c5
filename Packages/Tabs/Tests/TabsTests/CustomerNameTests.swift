import Tabs
import Testing

@Test(arguments: [
  ("", CustomerName.Refusal.empty),
  ("   ", .empty),
  ("Ada\nBob", .controlCharacter(0x0A)),
  ("\u{1B}[31mRed", .controlCharacter(0x1B)),
  ("Eve\u{202E}", .controlCharacter(0x202E)),
  ("Ze\u{200B}d", .controlCharacter(0x200B)),
  ("\u{200D}", .invisible),
  ("\u{200D}\u{301}\u{301}", .invisible),
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
  #expect(try CustomerName.validated(String(repeating: "a", count: 64)).count == 64)
}
