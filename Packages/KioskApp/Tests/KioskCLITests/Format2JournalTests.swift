import Foundation
import PostgresTestServer
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

/// The payloads of the commands in a journal file, as text.
private func commandPayloads(_ path: String) -> [String] {
  let data = FileManager.default.contents(atPath: path) ?? Data()
  return frames(of: data).filter { $0.type == 1 }.map { String(decoding: data[$0.payload], as: UTF8.self) }
}

@Test func aFormat2DayGoesOnInFormat2AndTheNextDayIsFormat3() throws {
  let (journal, kiosk) = try format2Till()
  #expect(try kiosk("open", "Gus").status == 0)
  let live = FileManager.default.contents(atPath: journal.path) ?? Data()
  #expect(live[4] == 2, "a writer keeps the version its day began in")
  #expect(commandPayloads(journal.path).last == #"{"opened":{"customer":"Gus","tab":{"raw":7}}}"#)
  let close = try kiosk("close-day")
  #expect(close.status == 0, "\(close.errors)")
  #expect(try kiosk("add", "7", "1").status == 0)
  #expect(try kiosk("settle", "7").status == 0)
  let next = FileManager.default.contents(atPath: journal.path) ?? Data()
  #expect(next[4] == 3, "the next day starts in the newest format")
  let payloads = commandPayloads(journal.path)
  #expect(payloads.first == #"{"added":{"item":1,"tab":7}}"#, "\(payloads)")
  #expect(payloads.contains { $0.hasPrefix(#"{"paymentIntent":{"amount":450,"charge":null,"key":""#) })
  #expect(payloads.last?.hasPrefix(#"{"settled":{"chargedAt":"20"#) == true)
  #expect(payloads.last?.hasSuffix(#","tab":7,"total":450}}"#) == true)
  let verify = try kiosk("verify", "--all")
  #expect(verify.status == 0, "\(verify.errors)")
  #expect(verify.output.hasPrefix("verified "), "\(verify.output)")
  #expect(try kiosk("reconcile").status == 0)
  #expect(try kiosk("board", "--all").output.contains("#7 Gus: Latte — 4.50 (settled)"))
}

@Test func aFormat2DayGoesToTheHeadOfficeAsItsOwnBytesAndIsAuditedAsVersion2() throws {
  let server = try ThrowawayPostgres.shared.get()
  let database = try server.freshDatabase()
  let (journal, kiosk) = try format2Till()
  let synced = try kiosk("sync", environment: headOffice(server, database: database, till: "north"))
  #expect(synced.status == 0, "\(synced.errors)")
  #expect(try server.query("SELECT version FROM kiosk_days WHERE day = 1", database: database) == "2\n")
  // Each command's record is held as the archive holds it: `JSONEncoder`'s bytes, not the canonical form.
  let held = try server.query(
    "SELECT body FROM kiosk_records WHERE day = 1 AND kind NOT IN ('checkpoint', 'lost') ORDER BY sequence",
    database: database)
  #expect(held == commandPayloads(journal.path + ".day-0001").map { $0 + "\n" }.joined())
  #expect(held.contains(#""tab":{"raw":"#))
  let verified = try kioskHQ("verify", server: server, database: database)
  #expect(verified.lines == ["every shipped day agrees with its records"], "\(verified.output)\(verified.errors)")
}
