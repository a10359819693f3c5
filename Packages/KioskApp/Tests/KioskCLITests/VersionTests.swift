import Foundation
import Testing

@Test func versionPrintsTheKioskAndJournalVersionsAndTouchesNoFile() throws {
  let journal = try TemporaryJournal()
  let kiosk = KioskBinary(journal: journal.path, owner: journal)
  let text = try kiosk("--version")
  #expect(text.status == 0)
  #expect(
    text.output.wholeMatch(of: /kiosk [0-9]+\.[0-9]+\.[0-9]+ \(journal format [0-9]+\)\n/) != nil, "\(text.output)")
  let json = try kiosk("--version", "--json")
  let object = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any]
  #expect(object?["version"] is String && object?["journalFormat"] is Int)
  #expect(!FileManager.default.fileExists(atPath: journal.path), "--version opens no journal")
  #expect(try kiosk("--version=2").status == 64)
}
