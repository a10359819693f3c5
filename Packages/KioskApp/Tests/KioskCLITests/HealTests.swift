import Foundation
import PostgresTestServer
import Testing

// The head office keeps each closed day as the till's journal holds it (its
// version, salt, CRC-32C and every record's bytes), so `kiosk heal DAY` can
// give a damaged archive back byte for byte, checked against the till's chain
// and the head office's digest; then `verify --all` passes and the till syncs on.

/// A till with three closed days at the head office, a fourth closed since,
/// and the bytes of day 3's archive as it was shipped.
private func tillWithDayThreeAtTheHeadOffice(
  _ server: ThrowawayPostgres, database: String
) throws -> (TemporaryJournal, KioskBinary, original: Data) {
  let (journal, kiosk) = try tillWithClosedDays(3)
  #expect(try kiosk("sync", environment: headOffice(server, database: database, till: "north")).status == 0)
  #expect(try kiosk("shell", input: "add 7 latte\nsettle 7\nclose-day\n").status == 0)
  let original = try Data(contentsOf: URL(fileURLWithPath: journal.path + ".day-0003"))
  return (journal, kiosk, original)
}

/// Flips a byte in the middle of `path` (an archive, read-only), as a disk would.
private func damage(_ path: String) throws {
  chmod(path, 0o644)
  var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
  bytes[bytes.count / 2] ^= 0x5A
  try bytes.write(to: URL(fileURLWithPath: path))
  chmod(path, 0o444)
}

@Test func aDayDamagedAfterTheHeadOfficeTookItIsHealedByteForByteAndTheTillSyncsOn() throws {
  let server = try ThrowawayPostgres.shared.get()
  let database = try server.freshDatabase()
  let (journal, kiosk, original) = try tillWithDayThreeAtTheHeadOffice(server, database: database)
  let archive = journal.path + ".day-0003"
  try damage(archive)
  #expect(try kiosk("verify", "--all").status == 74)
  let stopped = try kiosk("sync", environment: headOffice(server, database: database, till: "north"))
  #expect(stopped.status == 74)
  #expect(stopped.errors.contains("restore it with 'kiosk heal 3'"), "\(stopped.errors)")

  let healed = try kiosk("heal", "3", environment: ["KIOSK_HEAD_OFFICE": server.conninfo(database: database)])
  #expect(healed.status == 0, "\(healed.errors)")
  #expect(
    healed.lines == [
      "day 3: '\(archive)' restored from the head office's copy of till 'north', byte for byte; "
        + "the damaged file is kept as '\(archive).damaged'"
    ])
  #expect(try Data(contentsOf: URL(fileURLWithPath: archive)) == original)
  #expect((try FileManager.default.attributesOfItem(atPath: archive)[.posixPermissions] as? Int) == 0o444)
  #expect(try kiosk("verify", "--all").status == 0)
  let synced = try kiosk("sync", environment: headOffice(server, database: database, till: "north"))
  #expect(synced.status == 0, "\(synced.errors)")
  #expect(synced.lines.first?.hasPrefix("day 4: shipped, ") == true, "\(synced.lines)")

  let again = try kiosk("--json", "heal", "3", environment: headOffice(server, database: database, till: "north"))
  #expect(again.status == 0)
  #expect(again.output.contains("\"outcome\":\"alreadyWhole\""), "\(again.output)")
}

@Test func aCopyThatIsNotTheFileTheTillShippedIsRefusedAndNothingWritten() throws {
  let server = try ThrowawayPostgres.shared.get()
  let database = try server.freshDatabase()
  let (journal, kiosk, _) = try tillWithDayThreeAtTheHeadOffice(server, database: database)
  let archive = journal.path + ".day-0003"
  try damage(archive)
  let damaged = try Data(contentsOf: URL(fileURLWithPath: archive))
  let office = ["KIOSK_HEAD_OFFICE": server.conninfo(database: database)]

  // Given: a customer's name altered at the head office.
  _ = try server.query(
    "UPDATE kiosk_records SET body = replace(body, 'Ada', 'Eve') WHERE day = 3 AND kind = 'opened'",
    database: database)
  let altered = try kiosk("heal", "3", environment: office)
  #expect(altered.status == 65)
  #expect(altered.errors.contains("is not the file the till shipped (its CRC-32C differs); nothing was written"))
  #expect(try Data(contentsOf: URL(fileURLWithPath: archive)) == damaged)
  #expect(!FileManager.default.fileExists(atPath: archive + ".damaged"))

  // Given: a day held as shipped before the head office kept the journal's bytes.
  _ = try server.query("UPDATE kiosk_days SET version = NULL, salt = NULL, file_crc = NULL", database: database)
  let old = try kiosk("heal", "3", environment: office)
  #expect(old.status == 65)
  #expect(old.errors.contains("shipped before it kept the journal's bytes"), "\(old.errors)")

  #expect(try kiosk("heal", "9", environment: office).status == 64, "not a closed day")
  #expect(try kiosk("heal", "three", environment: office).status == 64)
  #expect(try kiosk("heal", "3").status == 64, "no head office to ask")
  #expect(try Data(contentsOf: URL(fileURLWithPath: archive)) == damaged)
}

@Test func aCopyOfAnotherTillsDayIsRefusedByTheTillsNotesAndByItsChain() throws {
  let server = try ThrowawayPostgres.shared.get()
  let database = try server.freshDatabase()
  let (journal, kiosk, _) = try tillWithDayThreeAtTheHeadOffice(server, database: database)
  let archive = journal.path + ".day-0003"
  // Another till, whose days differ, at the same head office.
  let (otherJournal, other) = try tillWithClosedDays(0)
  _ = otherJournal
  // Cy's tab is #1 and stays open; Zed's are #2, #3 and #4, one a day.
  let days = (2...4).map { "open Zed\nadd \($0) espresso\nadd \($0) espresso\nsettle \($0)\nclose-day\n" }.joined()
  #expect(try other("shell", input: days).status == 0)
  #expect(try other("sync", environment: headOffice(server, database: database, till: "south")).status == 0)
  let foreign = try kiosk("heal", "3", environment: headOffice(server, database: database, till: "south"))
  #expect(foreign.status == 65, "this till is 'north': \(foreign.errors)")

  // Given: this till's day 3 swapped for the other's at the head office, and the archive lost.
  _ = try server.query(
    "DELETE FROM kiosk_records WHERE till = 'north' AND day = 3; DELETE FROM kiosk_days WHERE till = 'north' AND day = 3; "
      + "UPDATE kiosk_records SET till = 'north' WHERE till = 'south' AND day = 3; "
      + "UPDATE kiosk_days SET till = 'north' WHERE till = 'south' AND day = 3", database: database)
  #expect(unlink(archive) == 0)
  let noted = try kiosk("heal", "3", environment: headOffice(server, database: database, till: "north"))
  #expect(noted.status == 65)
  #expect(noted.errors.contains("is not the day this till shipped as 'north'"), "\(noted.errors)")
  // Without the till's notes, its chain still tells: day 3 must open where day 2 ended.
  #expect(unlink(journal.path + ".head-office") == 0)
  let unchained = try kiosk("heal", "3", environment: headOffice(server, database: database, till: "north"))
  #expect(unchained.status == 65)
  #expect(unchained.errors.contains("does not fit this till's chain"), "\(unchained.errors)")
  #expect(!FileManager.default.fileExists(atPath: archive), "nothing was written")
}
