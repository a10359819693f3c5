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
          == "'\(journal.path)': record 2: the customer's name contains the control or format character U+\(character)")
    }
  }
}

/// Names the rules refuse for other reasons (longer than today's limit) may
/// come from before the rules: verify reads them.
@Test func verifyReadsANameLongerThanTodaysLimit() throws {
  let journal = try TemporaryJournal()
  try dayOpeningATab(for: String(repeating: "a", count: CustomerName.maxCharacters + 1), in: journal)
  #expect(try KioskVerifier.replay(path: journal.path).records == 2)
}
