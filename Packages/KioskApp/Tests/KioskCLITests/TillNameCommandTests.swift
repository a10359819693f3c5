import Foundation
import PostgresTestServer
import Testing

// A till's name is its own: the first sync keeps the name in the till's
// journal, a sync under another name ships nothing, and only `rename-till`,
// which the head office accepts first, changes it. Days shipped under the old
// name stay where they are, and count as the till's under the new one.

@Test func theFirstSyncKeepsTheTillsNameAndASyncUnderAnotherShipsNothing() throws {
  let server = try ThrowawayPostgres.shared.get()
  let database = try server.freshDatabase()
  let (_, kiosk) = try tillWithClosedDays(2)
  let unnamed = try kiosk("sync", environment: ["KIOSK_HEAD_OFFICE": server.conninfo(database: database)])
  #expect(unnamed.status == 64, "no name given and none kept: \(unnamed.errors)")

  #expect(try kiosk("sync", environment: headOffice(server, database: database, till: "north")).status == 0)
  #expect(try kiosk("history").lines.last?.hasSuffix("the till is named 'north'") == true)

  let other = try kiosk("sync", environment: headOffice(server, database: database, till: "south"))
  #expect(other.status == 65)
  #expect(
    other.errors.hasPrefix("kiosk: this till is named 'north' in its journal, not 'south' ($KIOSK_TILL)"),
    "\(other.errors)")
  #expect(try server.query("SELECT DISTINCT till FROM kiosk_days", database: database) == "north\n")

  // The name outlives the day: the next day's sync, with no name given, ships as 'north'.
  #expect(try kiosk("shell", input: "add 5 latte\nsettle 5\nclose-day\n").status == 0)
  let kept = try kiosk("sync", environment: ["KIOSK_HEAD_OFFICE": server.conninfo(database: database)])
  #expect(kept.status == 0, "\(kept.errors)")
  #expect(kept.lines.last == "till 'north': the head office holds all 3 closed days it can; 0 behind")
  #expect(try kiosk("verify", "--all").status == 0)
}

@Test func aRenamedTillShipsUnderItsNewNameAndItsOldDaysStayItsOwn() throws {
  let server = try ThrowawayPostgres.shared.get()
  let database = try server.freshDatabase()
  let (_, kiosk) = try tillWithClosedDays(2)
  #expect(try kiosk("sync", environment: headOffice(server, database: database, till: "north")).status == 0)
  // Another till already holds days under 'west'.
  let (_, west) = try tillWithClosedDays(1)
  #expect(try west("sync", environment: headOffice(server, database: database, till: "west")).status == 0)
  let office = ["KIOSK_HEAD_OFFICE": server.conninfo(database: database)]

  let taken = try kiosk("rename-till", "west", environment: office)
  #expect(taken.status == 65)
  #expect(taken.errors.contains("the head office refused the name 'west'"), "\(taken.errors)")
  #expect(taken.errors.contains("the till is still 'north'"))
  #expect(try kiosk("rename-till", "south").status == 64, "no head office to ask")

  let renamed = try kiosk("--json", "rename-till", "south", environment: office)
  #expect(renamed.status == 0, "\(renamed.errors)")
  #expect(renamed.output.contains("\"headOffice\":\"renamed\""), "\(renamed.output)")
  #expect(try kiosk("history").lines.last?.hasSuffix("the till is named 'south'") == true)

  #expect(try kiosk("shell", input: "add 5 latte\nsettle 5\nclose-day\n").status == 0)
  let synced = try kiosk("sync", environment: office)
  #expect(synced.status == 0, "\(synced.errors)")
  #expect(synced.lines.last == "till 'south': the head office holds all 3 closed days it can; 0 behind")
  #expect(
    try server.query("SELECT till, day FROM kiosk_days WHERE till <> 'west' ORDER BY day", database: database)
      == "north|1\nnorth|2\nsouth|3\n", "the old days stay where they were shipped, each once")
  let old = try kiosk("sync", environment: headOffice(server, database: database, till: "north"))
  #expect(old.status == 65, "the old name is no longer the till's")

  let report = try kioskHQ("report", server: server, database: database)
  #expect(report.lines.contains { $0.wholeMatch(of: /south \(as north\) +1 .*/) != nil }, "\(report.lines)")
  #expect(report.lines.contains { $0.wholeMatch(of: /south +3 .*/) != nil }, "\(report.lines)")
  let data = try kioskHQ("report", "--json", server: server, database: database)
  #expect(data.output.contains("\"tillCount\":2"), "south and west: \(data.output)")
  #expect(try kioskHQ("verify", server: server, database: database).status == 0)
}

@Test func aRenameTheHeadOfficeTookButTheTillDidNotKeepIsFinishedByRunningItAgain() throws {
  let server = try ThrowawayPostgres.shared.get()
  let database = try server.freshDatabase()
  let (_, kiosk) = try tillWithClosedDays(1)
  #expect(try kiosk("sync", environment: headOffice(server, database: database, till: "north")).status == 0)
  // Given: the head office recorded the renaming, and the till was stopped before it kept the name.
  _ = try server.query("INSERT INTO kiosk_till_names (till, renamed_to) VALUES ('north', 'south')", database: database)
  let office = ["KIOSK_HEAD_OFFICE": server.conninfo(database: database)]

  let again = try kiosk("--json", "rename-till", "south", environment: office)
  #expect(again.status == 0, "\(again.errors)")
  #expect(again.output.contains("\"headOffice\":\"alreadyRenamed\""), "\(again.output)")
  let back = try kiosk("rename-till", "north", environment: office)
  #expect(back.status == 65, "a till's old name is not given again: \(back.errors)")
  let synced = try kiosk("sync", environment: office)
  #expect(synced.lines.last == "till 'south': the head office holds all 1 closed day it can; 0 behind")
  #expect(try server.query("SELECT till, day FROM kiosk_days", database: database) == "north|1\n")
}
