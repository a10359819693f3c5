import Foundation
import PostgresTestServer
import Synchronization
import Testing

// `kiosk sync` end to end: the built binary, tills made by `kiosk shell`, and a
// real PostgreSQL server (`ThrowawayPostgres`) as the head office.

/// A till with `days` closed days (two tabs settled each: a latte and an
/// espresso, 7.50) and one tab open on the live day.
func tillWithClosedDays(_ days: Int) throws -> (TemporaryJournal, KioskBinary) {
  let journal = try TemporaryJournal()
  let kiosk = KioskBinary(journal: journal.path, owner: journal)
  var script = ""
  for day in 0..<days {
    let first = day * 2 + 1
    script +=
      "open Ada\nadd \(first) latte\nsettle \(first)\nopen Bob\nadd \(first + 1) espresso\nsettle \(first + 1)\n"
    script += "close-day\n"
  }
  script += "open Cy\n"
  let made = try kiosk("shell", input: script)
  #expect(made.status == 0, "\(made.errors)")
  return (journal, kiosk)
}

/// The environment `sync` reads: the till's name and the head office's database.
func headOffice(_ server: ThrowawayPostgres, database: String, till: String) -> [String: String] {
  ["KIOSK_TILL": till, "KIOSK_HEAD_OFFICE": server.conninfo(database: database)]
}

@Test func syncShipsEachClosedDayOnceAndASecondSyncShipsNothing() throws {
  let server = try ThrowawayPostgres.shared.get()
  let database = try server.freshDatabase()
  let (journal, kiosk) = try tillWithClosedDays(2)
  let first = try kiosk("sync", environment: headOffice(server, database: database, till: "north"))
  #expect(first.status == 0, "\(first.errors)")
  #expect(first.lines.count == 3)
  #expect(first.lines[0].hasPrefix("day 1: shipped, "))
  #expect(first.lines[1].hasPrefix("day 2: shipped, "))
  #expect(first.lines[2] == "till 'north': the head office holds all 2 closed days it can; 0 behind")
  // Every record of each archive (as `history --all` lists them, under a line per day), and the Z report's money.
  let history = try kiosk("history", "--all").lines
  for day in 1...2 {
    let records = history.drop { !$0.hasPrefix("day \(day): ") }.dropFirst().prefix { !$0.hasPrefix("day ") }
    #expect(records.count > 6)
    #expect(
      try server.query("SELECT count(*) FROM kiosk_records WHERE day = \(day)", database: database)
        == "\(records.count)\n")
  }
  #expect(
    try server.query("SELECT day, charged, refunded, settled_tabs FROM kiosk_days ORDER BY day", database: database)
      == "1|7.5000|0.0000|2\n2|7.5000|0.0000|2\n")
  #expect(
    try server.query("SELECT day, name, count, total FROM kiosk_sales ORDER BY day, item", database: database)
      == "1|Latte|1|4.5000\n1|Espresso|1|3.0000\n2|Latte|1|4.5000\n2|Espresso|1|3.0000\n")

  let again = try kiosk("sync", environment: headOffice(server, database: database, till: "north"))
  #expect(again.status == 0)
  #expect(again.lines == ["till 'north': the head office holds all 2 closed days it can; 0 behind"])
  #expect(try server.query("SELECT count(*) FROM kiosk_days", database: database) == "2\n")

  // With its notes garbled, the till sends every day again: nothing doubles.
  try Data("north 01 x\r\nnorth 1 0123 y\n\u{0}\u{1}".utf8).write(
    to: URL(fileURLWithPath: journal.path + ".head-office"))
  let resent = try kiosk("sync", environment: headOffice(server, database: database, till: "north"))
  #expect(
    resent.lines.prefix(2) == ["day 1: the head office already held it", "day 2: the head office already held it"])
  #expect(try server.query("SELECT count(*) FROM kiosk_days", database: database) == "2\n")

  // A day closed later is the only one shipped next time.
  #expect(try kiosk("close-day").status == 0)
  let third = try kiosk("sync", "--json", environment: headOffice(server, database: database, till: "north"))
  let object = try JSONSerialization.jsonObject(with: Data(third.output.utf8)) as? [String: Any]
  #expect((object?["days"] as? [[String: Any]])?.map { $0["day"] as? Int } == [3])
  #expect(object?["closedDays"] as? Int == 3)
}

@Test func aHeadOfficeThatIsDownStopsTheSyncWith69AndTheTillGoesOn() throws {
  let (_, kiosk) = try tillWithClosedDays(2)
  let nowhere = FileManager.default.temporaryDirectory.appendingPathComponent("no-hq-\(UUID().uuidString)").path
  let down = try kiosk("sync", environment: ["KIOSK_TILL": "north", "KIOSK_HEAD_OFFICE": "host=\(nowhere) dbname=hq"])
  #expect(down.status == 69)
  #expect(down.errors.hasPrefix("kiosk: the head office is unreachable: "))
  #expect(down.errors.contains("; days 1 and 2 not at the head office yet (the till goes on; run 'kiosk sync' again)"))
  #expect(down.errors.split(separator: "\n").count == 1)
  // In JSON, the days still behind are a field of the result on stdout; the error is on stderr.
  let json = try kiosk(
    "sync", "--json", environment: ["KIOSK_TILL": "north", "KIOSK_HEAD_OFFICE": "host=\(nowhere) dbname=hq"])
  #expect(json.status == 69)
  let object = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any]
  #expect(object?["behind"] as? [Int] == [1, 2])
  #expect((object?["days"] as? [Any])?.isEmpty == true)
  #expect(try kiosk("open", "Dee").status == 0, "a head office that is down never stops a sale")
}

@Test(arguments: [
  ([:], 64, "kiosk: sync needs the till's name in $KIOSK_TILL (1 to 64 of A-Z a-z 0-9 . _ -)"),
  (["KIOSK_TILL": "north"], 64, "kiosk: sync needs the head office's connection string in $KIOSK_HEAD_OFFICE"),
  (["KIOSK_TILL": "north till", "KIOSK_HEAD_OFFICE": "host=/x"], 64, "kiosk: KIOSK_TILL must be 1 to 64 of"),
])
func syncRefusesAnIncompleteSetting(environment: [String: String], status: Int32, message: String) throws {
  let (journal, kiosk) = try tillWithClosedDays(1)
  let before = journal.bytes
  let refused = try kiosk("sync", environment: environment)
  #expect(refused.status == status)
  #expect(refused.errors.hasPrefix(message))
  #expect(journal.bytes == before)
}

@Test func twoTillsUnderOneNameAreRefusedNotMerged() throws {
  let server = try ThrowawayPostgres.shared.get()
  let database = try server.freshDatabase()
  let (_, first) = try tillWithClosedDays(1)
  let (_, second) = try tillWithClosedDays(1)
  #expect(try first("sync", environment: headOffice(server, database: database, till: "north")).status == 0)
  // The second till ended its day 1 in the same state, but its records differ (its own salt, times
  // and references): another digest.
  let refused = try second("sync", environment: headOffice(server, database: database, till: "north"))
  #expect(refused.status == 65)
  #expect(refused.errors.contains("two different days under one name; nothing was changed"))
  #expect(!refused.errors.contains("NOTICE"))
  #expect(try server.query("SELECT count(*) FROM kiosk_days", database: database) == "1\n")
}

/// Several tills syncing at once, each twice at the same moment, as separate
/// processes: every day is stored exactly once, and the chain's money is the
/// sum of the tills' Z reports.
@Test func tillsSyncingAtOnceStoreEachDayExactlyOnce() throws {
  let server = try ThrowawayPostgres.shared.get()
  let database = try server.freshDatabase()
  let tills = try (0..<4).map { _ in try tillWithClosedDays(2) }
  let runs = Mutex<[String]>([])
  DispatchQueue.concurrentPerform(iterations: tills.count * 2) { index in
    let kiosk = tills[index / 2].1
    let run = try? kiosk("sync", environment: headOffice(server, database: database, till: "till-\(index / 2)"))
    runs.withLock { $0.append(run.map { "\($0.status) \($0.errors)" } ?? "did not run") }
  }
  #expect(runs.withLock { $0 }.allSatisfy { $0 == "0 " }, "\(runs.withLock { $0 })")
  #expect(
    try server.query("SELECT count(*), count(DISTINCT (till, day)) FROM kiosk_days", database: database) == "8|8\n")
  #expect(try server.query("SELECT sum(charged) FROM kiosk_days", database: database) == "60.0000\n")
  #expect(
    try server.query(
      "SELECT count(*) FROM kiosk_days d WHERE record_count <> "
        + "(SELECT count(*) FROM kiosk_records r WHERE r.till = d.till AND r.day = d.day)", database: database) == "0\n"
  )
}

/// Runs the built `kiosk-hq` against the head office at `database`.
func kioskHQ(_ arguments: String..., server: ThrowawayPostgres, database: String) throws -> KioskBinary.Run {
  try kioskHQ(arguments, server: server, database: database)
}

/// Runs the built `kiosk-hq` with `arguments` against the head office at `database`.
func kioskHQ(_ arguments: [String], server: ThrowawayPostgres, database: String) throws -> KioskBinary.Run {
  let executable = KioskBinary.url.deletingLastPathComponent().appendingPathComponent("kiosk-hq")
  return try KioskBinary(journal: "").run(
    executable: executable, arguments, environment: ["KIOSK_HEAD_OFFICE": server.conninfo(database: database)])
}

@Test func theChainReportSumsTheTillsZReportsAndVerifyAgreesUntilARowIsLost() throws {
  let server = try ThrowawayPostgres.shared.get()
  let database = try server.freshDatabase()
  var cups = 0
  for (index, days) in [2, 3].enumerated() {
    let (_, kiosk) = try tillWithClosedDays(days)
    #expect(try kiosk("sync", environment: headOffice(server, database: database, till: "till-\(index)")).status == 0)
    // The live day holds one empty tab: the stock now is the last close's.
    let stock = try kiosk("stock").lines.first { $0.hasPrefix("cup ") }
    cups += Int(stock?.split(separator: " ").last ?? "") ?? 0
  }
  let report = try kioskHQ("report", server: server, database: database)
  #expect(report.status == 0, "\(report.errors)")
  #expect(report.lines.contains("chain: 5 till days, charged 37.50, refunded 0.00"))
  // In lined-up columns: names to the left, numbers to the right.
  let items = report.lines.drop { $0 != "item  name      sold  total" }.dropFirst().prefix(2)
  #expect(Array(items) == ["   1  Latte        5  22.50", "   4  Espresso     5  15.00"], "\(report.lines)")
  #expect(cups > 0)
  #expect(
    report.lines.contains { $0.hasPrefix("cup ") && $0.hasSuffix(" \(cups)") },
    "the chain's cups at each till's latest close")
  #expect(report.lines.contains { $0.hasPrefix("till-1    3  ") }, "\(report.lines)")
  let data = try kioskHQ("report", "--json", server: server, database: database)
  let object = try JSONSerialization.jsonObject(with: Data(data.output.utf8)) as? [String: Any]
  #expect(object?["charged"] as? String == "37.50")
  let stock = object?["stock"] as? [[String: Any]]
  #expect(stock?.first { $0["ingredient"] as? String == "cup" }?["closing"] as? Int == cups)
  let oneDay = try kioskHQ("report", "3", server: server, database: database)
  #expect(oneDay.lines.contains("chain: 1 till days, charged 7.50, refunded 0.00"))

  let verified = try kioskHQ("verify", server: server, database: database)
  #expect(verified.status == 0)
  #expect(verified.lines == ["every shipped day agrees with its records"])
  // A record lost at the head office, a settle's amount altered, a customer's name altered in a
  // record's body, and a body respelled to read the same: each is found, at its day, by the checks
  // in SQL, by replaying the day's records, or by the file those records make.
  _ = try server.query(
    "DELETE FROM kiosk_records WHERE till = 'till-0' AND day = 1 AND sequence = 2", database: database)
  _ = try server.query(
    "UPDATE kiosk_records SET amount = 9 WHERE till = 'till-1' AND day = 2 AND kind = 'settled' AND tab = 3",
    database: database)
  _ = try server.query(
    "UPDATE kiosk_records SET body = replace(body, 'Bob', 'Eve') WHERE till = 'till-1' AND day = 3 AND kind = 'opened'",
    database: database)
  _ = try server.query(
    "UPDATE kiosk_records SET body = '{ ' || substr(body, 2) WHERE till = 'till-0' AND day = 2 AND kind = 'opened'",
    database: database)
  let refused = try kioskHQ("verify", server: server, database: database)
  #expect(refused.status == 65)
  #expect(refused.lines.count == 7, "\(refused.lines)")
  #expect(
    refused.lines[0].hasPrefix(
      "till 'till-0' day 1: the till sent 10 records; the head office holds 9, numbered 1 to 10"))
  #expect(
    refused.lines[1].hasPrefix("till 'till-0' day 1: its records do not replay: record 3 (added): "),
    "the tab record 2 opened is gone")
  #expect(
    refused.lines[2].hasPrefix("till 'till-0' day 2: its records do not make the file the till shipped (CRC-32C "),
    "a respelling reads the same, so only the file shows it")
  #expect(refused.lines[3] == "till 'till-1' day 2: charged 7.5 by the Z report, but its settles total 12")
  #expect(
    refused.lines[4]
      == "till 'till-1' day 2: record 5 is held as settled, tab 3, amount 9, but its body says settled, tab 3, amount 4.5"
  )
  #expect(refused.lines[5].hasPrefix("till 'till-1' day 3: its records replay to digest 'records crc32c:"))
  #expect(refused.lines[6].hasPrefix("till 'till-1' day 3: its records do not make the file the till shipped"))
  #expect(refused.errors == "kiosk-hq: 7 disagreements in the shipped days\n")
}

/// `verify` replays every day from the records the head office holds, refunds
/// included: totals, sales and stock altered at the head office are found,
/// though the records are untouched.
@Test func verifyReplaysEachDayAndFindsTotalsSalesAndStockAlteredAtTheHeadOffice() throws {
  let server = try ThrowawayPostgres.shared.get()
  let database = try server.freshDatabase()
  let journal = try TemporaryJournal()
  let kiosk = KioskBinary(journal: journal.path, owner: journal)
  // A latte settled, refunded by undo, settled again; an espresso settled: charged 12.00, refunded 4.50.
  let made = try kiosk(
    "shell", input: "open Ada\nadd 1 latte\nsettle 1\nundo\nsettle 1\nopen Bob\nadd 2 espresso\nsettle 2\nclose-day\n")
  #expect(made.status == 0, "\(made.errors)")
  #expect(try kiosk("sync", environment: headOffice(server, database: database, till: "north")).status == 0)
  #expect(
    try server.query("SELECT charged, refunded, settled_tabs FROM kiosk_days", database: database)
      == "12.0000|4.5000|2\n")
  let verified = try kioskHQ("verify", server: server, database: database)
  #expect(verified.lines == ["every shipped day agrees with its records"], "\(verified.lines) \(verified.errors)")

  _ = try server.query("UPDATE kiosk_days SET refunded = 0", database: database)
  _ = try server.query("UPDATE kiosk_sales SET count = 2 WHERE item = 4", database: database)
  _ = try server.query("UPDATE kiosk_stock SET closing = closing + 1 WHERE ingredient = 'cup'", database: database)
  let refused = try kioskHQ("verify", server: server, database: database)
  #expect(refused.status == 65)
  #expect(
    refused.lines == [
      "till 'north' day 1: kept 12 (charged less refunded), but its sales total 7.5",
      "till 'north' day 1: charged 12, refunded 0, 2 tabs settled, but its records replay to 12, 4.5, 2",
      "till 'north' day 1: its sales by item differ from what its records replay to",
      "till 'north' day 1: its stock at opening and closing differs from what its records replay to",
    ], "\(refused.lines)")
}

@Test(arguments: [["report", "0"], ["audit"], [], ["verify", "extra"]] as [[String]])
func kioskHQRefusesABadCommandLineWith64(arguments: [String]) throws {
  let run = try kioskHQ(arguments, server: try ThrowawayPostgres.shared.get(), database: "postgres")
  #expect(run.status == 64)
  #expect(run.errors.hasPrefix("kiosk-hq: "))
}

/// A mistake on `kiosk-hq`'s command line is named whatever the environment
/// holds; a connection string that is wrong is a usage error too (64), not a
/// head office that did not answer (69); and help is asked for, not refused.
@Test func kioskHQNamesAMistakeInItsCommandLineBeforeItsEnvironment() throws {
  let executable = KioskBinary.url.deletingLastPathComponent().appendingPathComponent("kiosk-hq")
  func run(_ arguments: [String], headOffice: String? = nil) throws -> KioskBinary.Run {
    try KioskBinary(journal: "").run(
      executable: executable, arguments, environment: ["KIOSK_HEAD_OFFICE": headOffice ?? ""])
  }
  #expect(try run(["report", "abc"]).errors == "kiosk-hq: DAY is a day's number, from 1, not 'abc'\n")
  #expect(try run(["report", "1", "2"]).errors == "kiosk-hq: one DAY at most, not '2' too\n")
  #expect(try run(["verify", "x"]).status == 64)
  let wrong = try run(["report"], headOffice: "garbage===")
  #expect(wrong.status == 64)
  #expect(wrong.errors.contains("connection string is wrong"), "\(wrong.errors)")
  for asked in ["help", "--help", "-h"] {
    let help = try run([asked])
    #expect(help.status == 0)
    #expect(help.output.hasPrefix("usage: kiosk-hq report"))
  }
}

@Test func aHeadOfficeThatLostItsDaysGetsThemAgainWhateverTheTillNoted() throws {
  let server = try ThrowawayPostgres.shared.get()
  let database = try server.freshDatabase()
  let (_, kiosk) = try tillWithClosedDays(2)
  #expect(try kiosk("sync", environment: headOffice(server, database: database, till: "north")).status == 0)
  _ = try server.query("TRUNCATE kiosk_days, kiosk_records, kiosk_sales, kiosk_stock", database: database)
  let again = try kiosk("sync", environment: headOffice(server, database: database, till: "north"))
  #expect(again.status == 0)
  #expect(again.lines.prefix(2).allSatisfy { $0.contains(": shipped, ") })
  // Another head office altogether: asked, and given every day.
  let other = try server.freshDatabase()
  #expect(try kiosk("sync", environment: headOffice(server, database: other, till: "north")).lines.count == 3)
  // A head office that is not there is never taken for one that holds everything.
  let nowhere = try kiosk("sync", environment: ["KIOSK_TILL": "north", "KIOSK_HEAD_OFFICE": "host=/nonexistent-hq"])
  #expect(nowhere.status == 69)
}

@Test func aTillStartedAfreshInTheSameFolderIsNotHiddenByTheOldNotes() throws {
  let server = try ThrowawayPostgres.shared.get()
  let database = try server.freshDatabase()
  let (journal, kiosk) = try tillWithClosedDays(1)
  #expect(try kiosk("sync", environment: headOffice(server, database: database, till: "north")).status == 0)
  // The till's files go, its notes stay; a new day 1 is made in their place.
  for name in ["kiosk.journal", "kiosk.journal.day-0001", "kiosk.journal.processor", "kiosk.journal.checkpoints"] {
    try? FileManager.default.removeItem(at: journal.folder.appendingPathComponent(name))
  }
  let made = try kiosk("shell", input: "open Zed\nadd 1 espresso\nsettle 1\nclose-day\n")
  #expect(made.status == 0, "\(made.errors)")
  let refused = try kiosk("sync", environment: headOffice(server, database: database, till: "north"))
  #expect(refused.status == 65)
  #expect(refused.errors.contains("two different days under one name"))
  #expect(!refused.errors.contains("run 'kiosk sync' again"))
}

@Test func aMissingArchiveStopsTheSyncAndIsNamed() throws {
  let server = try ThrowawayPostgres.shared.get()
  let database = try server.freshDatabase()
  let (journal, kiosk) = try tillWithClosedDays(3)
  try FileManager.default.removeItem(atPath: journal.path + ".day-0002")
  let stopped = try kiosk("sync", environment: headOffice(server, database: database, till: "north"))
  #expect(stopped.status == 74)
  #expect(stopped.errors.contains("the archive of day 2"))
  #expect(try server.query("SELECT count(*) FROM kiosk_days", database: database) == "0\n", "nothing shipped")
  let nowhere = KioskBinary(journal: journal.folder.appendingPathComponent("none/kiosk.journal").path)
  let noTill = try nowhere("sync", environment: headOffice(server, database: database, till: "north"))
  #expect(noTill.status == 74)
  #expect(noTill.errors.contains("there is no till at"))
}

@Test func notesThatCannotBeWrittenAreAWarningAndEveryDayStillGoes() throws {
  let server = try ThrowawayPostgres.shared.get()
  let database = try server.freshDatabase()
  let (journal, kiosk) = try tillWithClosedDays(3)
  try FileManager.default.createDirectory(atPath: journal.path + ".head-office", withIntermediateDirectories: false)
  let run = try kiosk("sync", environment: headOffice(server, database: database, till: "north"))
  #expect(run.status == 0)
  #expect(run.lines.filter { $0.contains(": shipped, ") }.count == 3)
  #expect(run.errors.hasPrefix("kiosk: warning: "))
  #expect(run.errors.contains("the next sync reads the archives again"))
}

@Test func aRoleThatMayOnlyReadAndInsertCanSyncOnceTheTablesExist() throws {
  let server = try ThrowawayPostgres.shared.get()
  let database = try server.freshDatabase()
  let (_, first) = try tillWithClosedDays(1)
  #expect(try first("sync", environment: headOffice(server, database: database, till: "north")).status == 0)
  let role = "till_\(database.suffix(8))"
  _ = try server.query(
    "CREATE ROLE \(role) LOGIN; GRANT SELECT, INSERT ON kiosk_days, kiosk_records, kiosk_sales, kiosk_stock, "
      + "kiosk_till_names TO \(role)",
    database: database)
  let (_, second) = try tillWithClosedDays(1)
  let conninfo = server.conninfo(database: database).replacingOccurrences(of: "user=kiosk", with: "user=\(role)")
  let run = try second("sync", environment: ["KIOSK_TILL": "south", "KIOSK_HEAD_OFFICE": conninfo])
  #expect(run.status == 0, "\(run.errors)")
  #expect(try server.query("SELECT count(*) FROM kiosk_days", database: database) == "2\n")
}

/// A record damaged in the middle of an archive stops the sync at that day,
/// after the days before it went, with the advice archives take (restore it
/// or set it aside), never `kiosk repair`, which refuses archives.
@Test func aDamagedArchiveStopsTheSyncAtItsDayWithTheArchivesAdvice() throws {
  let server = try ThrowawayPostgres.shared.get()
  let database = try server.freshDatabase()
  let (journal, kiosk) = try tillWithClosedDays(3)
  let archive = journal.path + ".day-0002"
  var bytes = try Data(contentsOf: URL(fileURLWithPath: archive))
  bytes[bytes.count / 2] ^= 0x20
  try bytes.write(to: URL(fileURLWithPath: archive))
  let stopped = try kiosk("sync", environment: headOffice(server, database: database, till: "north"))
  #expect(stopped.status == 74)
  #expect(stopped.lines.first?.hasPrefix("day 1: shipped, ") == true, "\(stopped.lines)")
  #expect(stopped.lines.last == "till 'north': 2 behind as far as it knows (days 2 and 3)")
  #expect(stopped.errors.contains("the archive of day 2 is damaged"), "\(stopped.errors)")
  #expect(stopped.errors.contains("kiosk set-aside 2"))
  #expect(!stopped.errors.contains("kiosk repair"))
  #expect(try server.query("SELECT day FROM kiosk_days", database: database) == "1\n")
}

/// Every archive deleted: the live journal says which day it is, so the
/// missing days are named, not taken for a till with nothing closed.
@Test func everyArchiveDeletedIsNamedFromTheLiveDay() throws {
  let server = try ThrowawayPostgres.shared.get()
  let database = try server.freshDatabase()
  let (journal, kiosk) = try tillWithClosedDays(2)
  for day in 1...2 { try FileManager.default.removeItem(atPath: journal.path + ".day-000\(day)") }
  let stopped = try kiosk("sync", environment: headOffice(server, database: database, till: "north"))
  #expect(stopped.status == 74)
  #expect(stopped.errors.contains("the archive of day 1"), "\(stopped.errors)")
  #expect(try server.query("SELECT count(*) FROM kiosk_days", database: database) == "0\n", "nothing shipped")
}

/// An archive copied in from another till does not continue this till's day
/// before: the sync stops at it, though the day before is held and not read
/// for shipping. (Two tills whose days ended in the very same state cannot be
/// told apart this way: a day's opening checkpoint names only the state it carries.)
@Test func anArchiveFromAnotherTillIsRefusedAtItsDay() throws {
  let server = try ThrowawayPostgres.shared.get()
  let database = try server.freshDatabase()
  let (journal, kiosk) = try tillWithClosedDays(1)
  #expect(try kiosk("sync", environment: headOffice(server, database: database, till: "north")).status == 0)
  #expect(try kiosk("close-day").status == 0)
  let other = try TemporaryJournal()
  let made = try KioskBinary(journal: other.path, owner: other)(
    "shell", input: "open Zoe\nadd 1 espresso\nsettle 1\nclose-day\nopen Yan\nclose-day\n")
  #expect(made.status == 0, "\(made.errors)")
  let archive = journal.path + ".day-0002"
  try FileManager.default.removeItem(atPath: archive)
  try FileManager.default.copyItem(atPath: other.path + ".day-0002", toPath: archive)
  let stopped = try kiosk("sync", environment: headOffice(server, database: database, till: "north"))
  #expect(stopped.status == 74)
  #expect(stopped.errors.contains("day 2 does not continue this till's day 1: "), "\(stopped.errors)")
  #expect(stopped.errors.contains("one of the two files belongs to another till"))
  #expect(try server.query("SELECT day FROM kiosk_days", database: database) == "1\n")
}

/// A day 1 copied in from another till, with no day before it to compare:
/// the live day names how its day before ended, and it is not this one.
@Test func aFirstDayFromAnotherTillIsRefusedByTheLiveDay() throws {
  let server = try ThrowawayPostgres.shared.get()
  let database = try server.freshDatabase()
  let (journal, kiosk) = try tillWithClosedDays(1)
  let other = try TemporaryJournal()
  let made = try KioskBinary(journal: other.path, owner: other)(
    "shell", input: "open Zoe\nadd 1 espresso\nsettle 1\nclose-day\n")
  #expect(made.status == 0, "\(made.errors)")
  try FileManager.default.removeItem(atPath: journal.path + ".day-0001")
  try FileManager.default.copyItem(atPath: other.path + ".day-0001", toPath: journal.path + ".day-0001")
  let stopped = try kiosk("sync", environment: headOffice(server, database: database, till: "north"))
  #expect(stopped.status == 74)
  #expect(stopped.errors.contains("day 2 does not continue this till's day 1"), "\(stopped.errors)")
  #expect(try server.query("SELECT count(*) FROM kiosk_days", database: database) == "0\n")
}

/// What `sync` says is behind: with the head office down, the days the till
/// has no note of it holding; with an archive missing, every day it lacks.
/// Archives the head office holds may be pruned; a renamed journal still syncs;
/// two files holding one day are refused.
@Test func behindCountsOnlyWhatTheHeadOfficeLacksAndHeldArchivesMayGo() throws {
  let server = try ThrowawayPostgres.shared.get()
  let database = try server.freshDatabase()
  let (journal, kiosk) = try tillWithClosedDays(2)
  #expect(try kiosk("sync", environment: headOffice(server, database: database, till: "north")).status == 0)
  let nowhere = FileManager.default.temporaryDirectory.appendingPathComponent("no-hq-\(UUID().uuidString)").path
  let down = try kiosk("sync", environment: ["KIOSK_TILL": "north", "KIOSK_HEAD_OFFICE": "host=\(nowhere) dbname=hq"])
  #expect(down.status == 69)
  #expect(down.lines == ["till 'north': 0 behind as far as it knows"])

  // Days the head office holds may be pruned from the till; a day closed since still goes.
  for day in 1...2 { try FileManager.default.removeItem(atPath: journal.path + ".day-000\(day)") }
  #expect(try kiosk("close-day").status == 0)
  let pruned = try kiosk("sync", environment: headOffice(server, database: database, till: "north"))
  #expect(pruned.status == 0, "\(pruned.errors)")
  #expect(pruned.lines.first?.hasPrefix("day 3: shipped, ") == true)

  // The journal renamed: its files are the same days.
  let renamed = journal.folder.appendingPathComponent("shop.journal").path
  for name in try FileManager.default.contentsOfDirectory(atPath: journal.folder.path)
  where name.hasPrefix("kiosk.journal") {
    try FileManager.default.moveItem(
      atPath: journal.folder.appendingPathComponent(name).path,
      toPath: renamed + name.dropFirst("kiosk.journal".count))
  }
  let shop = KioskBinary(journal: renamed, owner: journal)
  #expect(try shop("close-day").status == 0)
  let moved = try shop("sync", environment: headOffice(server, database: database, till: "north"))
  #expect(moved.status == 0, "\(moved.errors)")
  #expect(moved.lines.first?.hasPrefix("day 4: shipped, ") == true)

  // One day under two names.
  try FileManager.default.copyItem(atPath: renamed + ".day-0004", toPath: renamed + ".day-00004")
  let twice = try shop("sync", environment: headOffice(server, database: database, till: "north"))
  #expect(twice.status == 74)
  #expect(twice.errors.contains("both hold day 4"), "\(twice.errors)")
}

/// An archive missing among days the head office does not hold: every one of them is behind.
@Test func aMissingArchiveCountsEveryDayTheHeadOfficeLacksAsBehind() throws {
  let server = try ThrowawayPostgres.shared.get()
  let database = try server.freshDatabase()
  let (journal, kiosk) = try tillWithClosedDays(4)
  try FileManager.default.removeItem(atPath: journal.path + ".day-0002")
  let stopped = try kiosk("sync", environment: headOffice(server, database: database, till: "north"))
  #expect(stopped.status == 74)
  #expect(stopped.lines == ["till 'north': 4 behind as far as it knows (days 1–4)"])
}
