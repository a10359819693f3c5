import Foundation
import Testing

/// A till written by the `kiosk` of journal format 2 (commit dca3ea4, before
/// settled tabs left the state), copied from `Fixtures/format2`: day 1 closed
/// and archived, day 2 live, checkpoints every 3 records, settles undone and
/// settled again on both days, and the last checkpoint's undo history holding
/// a settle. Its checkpoints hold every tab of the day, settled ones flagged.
private func format2Till() throws -> (TemporaryJournal, KioskBinary) {
  let journal = try TemporaryJournal()
  let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/format2")
  for name in try FileManager.default.contentsOfDirectory(atPath: fixture.path) {
    try FileManager.default.copyItem(
      at: fixture.appendingPathComponent(name), to: journal.folder.appendingPathComponent(name))
  }
  #expect(chmod(journal.path + ".day-0001", 0o444) == 0)
  return (journal, KioskBinary(journal: journal.path, owner: journal))
}

/// What that till's `kiosk board` printed (format 2 listed every tab of the day).
private let boardOfFormat2 = """
  #2 Grace: Oat Latte, Espresso — 8.00 (settled)
  #4 Di: Latte, Espresso — 7.50
  #5 Eve: Latte — 4.50 (settled)
  #6 Fay: Espresso — 3.00 (settled)

  """

@Test func aFormat2TillOpensVerifiesAndListsWhatItSettled() throws {
  let (_, kiosk) = try format2Till()
  let verify = try kiosk("verify", "--all")
  #expect(verify.status == 0, "\(verify.errors)")
  #expect(verify.output.hasPrefix("verified 40 records in 2 files"), "\(verify.output)")
  #expect(verify.output.contains("the processor agrees (7 charges, 2 refunds)"))
  #expect(
    try kiosk("board").output
      == "#4 Di: Latte, Espresso — 7.50\nsettled: 3 tabs, 15.50 ('kiosk board --all' lists them)\n")
  #expect(try kiosk("board", "--all").output == boardOfFormat2)
  #expect(try kiosk("reconcile").status == 0)
  #expect(try kiosk("history", "--all").status == 0)
}

@Test func aWriterCarriesAFormat2DayOnAndUndoesThroughItsCheckpoint() throws {
  let (journal, kiosk) = try format2Till()
  #expect(try kiosk("open", "Gus").status == 0)
  #expect(FileManager.default.fileExists(atPath: journal.path + ".settled"), "the day's settled tabs, rebuilt")
  #expect(try kiosk("board", "--all").output == boardOfFormat2 + "#7 Gus: nothing yet — 0.00\n")
  // Back past the format 2 checkpoint: its undo history reopens Eve's settled tab.
  for _ in 0..<8 {
    let undo = try kiosk("undo")
    #expect(undo.status == 0, "\(undo.errors)")
  }
  #expect(
    try kiosk("board", "--all").output
      == "#2 Grace: Oat Latte — 5.00\n#4 Di: Latte — 4.50\n#5 Eve: Latte — 4.50\n")
  let verify = try kiosk("verify", "--all")
  #expect(verify.status == 0, "\(verify.errors)")
  #expect(verify.output.contains("the processor agrees (7 charges, 5 refunds)"), "\(verify.output)")
  #expect(try kiosk("reconcile").status == 0)
}
