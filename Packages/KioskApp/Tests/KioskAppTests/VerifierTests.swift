import Foundation
import Journal
import KioskApp
import KioskCommands
import Tabs
import Testing

/// A day whose second record opens a tab for `customer`, written straight to the journal.
private func dayOpeningATab(for customer: String, in journal: TemporaryJournal) throws {
  var file = try DurableJournal(path: journal.path)
  try file.append(KioskRecord.initialized(menu: KioskDefaults.menu, stock: KioskDefaults.stock))
  try file.append(KioskRecord.opened(tab: Tab.ID(raw: 1), customer: customer))
}

/// No till writes a name with a control character; one in the journal could
/// forge lines of `board` or `history`, so verify fails on it, naming the record.
@Test func verifyFailsOnAStoredNameWithAControlCharacter() throws {
  for (customer, character) in [("B\u{7}ob", "7"), ("Bob\nsettled #9", "A"), ("\u{202E}boB", "202E")] {
    let journal = try TemporaryJournal()
    try dayOpeningATab(for: customer, in: journal)
    do {
      _ = try KioskVerifier.replay(path: journal.path)
      Issue.record("verified a name holding U+\(character)")
    } catch {
      #expect(
        "\(error)"
          == "'\(journal.path)': record 2: the customer's name contains U+\(character), which could change what "
          + "board and history print")
    }
  }
}

/// Names the rules refuse for other reasons (longer than today's limit, a
/// private-use or zero-width space character) may come from before the rules,
/// and names with joiners and flags are names: verify reads them all.
@Test func verifyReadsNamesThatCannotForgeALine() throws {
  let names = [
    String(repeating: "a", count: CustomerName.maxCharacters + 1), "Ze\u{200B}d", "\u{E000} Private",
    "علی\u{200C}رضا", "👩\u{200D}👩\u{200D}👧", "🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F} Fan",
  ]
  for name in names {
    let journal = try TemporaryJournal()
    try dayOpeningATab(for: name, in: journal)
    #expect(try KioskVerifier.replay(path: journal.path).records == 2, "\(name.debugDescription)")
  }
}
