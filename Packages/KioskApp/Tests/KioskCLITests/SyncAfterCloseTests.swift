import Foundation
import PostgresTestServer
import Testing

// With a head office configured, `close-day` starts a sync of its own in the
// background: the close never waits for it and never fails because of it, and
// the sync holds no journal lock. `kiosk sync --check` says, without asking the
// head office, how far behind the till is and how the last sync went.

/// A till with two closed days at the head office and a third day's sale, ready to close.
private func tillReadyToClose(_ server: ThrowawayPostgres, database: String) throws -> KioskBinary {
  let (journal, kiosk) = try tillWithClosedDays(2)
  _ = journal
  #expect(try kiosk("sync", environment: headOffice(server, database: database, till: "north")).status == 0)
  #expect(try kiosk("shell", input: "add 5 latte\nsettle 5\n").status == 0)
  return kiosk
}

/// The background sync's process, as `close-day`'s last line names it.
private func backgroundPid(_ closed: KioskBinary.Run) -> Int? {
  (closed.lines.last?.firstMatch(of: /\(pid ([0-9]+)\)/)?.1).flatMap { Int($0) }
}

/// `sync --check` as JSON, asked again (every 50 ms, at most `seconds`) until
/// the sync run by process `pid` is the last and no longer running.
private func settledCheck(
  _ kiosk: KioskBinary, pid: Int?, environment: [String: String], seconds: Int = 60
) throws -> [String: Any] {
  var object: [String: Any] = [:]
  for _ in 0..<(seconds * 20) {
    let check = try kiosk("--json", "sync", "--check", environment: environment)
    #expect(check.status == 0, "\(check.errors)")
    object = try JSONSerialization.jsonObject(with: Data(check.output.utf8)) as? [String: Any] ?? [:]
    let attempt = object["attempt"] as? [String: Any]
    if attempt?["pid"] as? Int == pid, let last = object["last"] as? String, last != "running" { return object }
    usleep(50_000)
  }
  return object
}

@Test func closeDayWithAHeadOfficeShipsTheDayInTheBackgroundAndCheckSaysSo() throws {
  let server = try ThrowawayPostgres.shared.get()
  let database = try server.freshDatabase()
  let kiosk = try tillReadyToClose(server, database: database)
  let environment = headOffice(server, database: database, till: "north")

  let closed = try kiosk("close-day", environment: environment)
  #expect(closed.status == 0, "\(closed.errors)")
  let started = try #require(closed.lines.last)
  #expect(started.hasPrefix("sync of day 3 as till 'north' started in the background (pid "), "\(closed.lines)")

  let check = try settledCheck(kiosk, pid: backgroundPid(closed), environment: environment)
  #expect(check["last"] as? String == "done", "\(check)")
  #expect(check["behind"] as? [Int] == [])
  #expect((check["attempt"] as? [String: Any])?["shipped"] as? [Int] == [3])
  #expect(try server.query("SELECT day FROM kiosk_days ORDER BY day", database: database) == "1\n2\n3\n")
  let text = try kiosk("sync", "--check", environment: environment)
  #expect(text.lines.first == "till 'north': 0 behind as far as it knows (3 closed days at the head office)")
  #expect(text.lines.last?.hasSuffix(": shipped day 3") == true, "\(text.lines)")
}

@Test func aHeadOfficeThatDoesNotAnswerNeitherHoldsTheCloseNorTheTill() throws {
  let server = try ThrowawayPostgres.shared.get()
  let database = try server.freshDatabase()
  let kiosk = try tillReadyToClose(server, database: database)
  var environment = headOffice(server, database: database, till: "north")
  environment["KIOSK_HEAD_OFFICE_DEADLINE"] = "4"
  // Another session holds day 3's lock: the background sync waits for it until its deadline.
  let session = try LockingSession(server, database: database, sql: stages[1].lock, acknowledgement: "held")

  let closed = try kiosk("close-day", environment: environment)
  #expect(closed.status == 0, "\(closed.errors)")
  #expect(closed.lines.last?.contains("started in the background") == true, "\(closed.lines)")
  // The close returned while the sync still waits (it ends only at its deadline, 4 s on):
  // the last sync noted is still the one before, or this one, running.
  let meanwhile = try kiosk("--json", "sync", "--check", environment: environment).output
  #expect(!meanwhile.contains("\"last\":\"stopped\""), "\(meanwhile)")
  // The till goes on: no journal lock is held by the sync (and `--wait 0` waits for none).
  let sale = try kiosk("--wait", "0", "open", "Dee", environment: environment)
  #expect(sale.status == 0, "\(sale.errors)")

  let check = try settledCheck(kiosk, pid: backgroundPid(closed), environment: environment)
  #expect(check["last"] as? String == "stopped", "\(check)")
  #expect(check["behind"] as? [Int] == [3])
  let reason = (check["attempt"] as? [String: Any])?["reason"] as? String ?? ""
  #expect(reason.contains("no answer within 4 s"), "\(reason)")
  #expect(try server.query("SELECT count(*) FROM kiosk_days", database: database) == "2\n")

  session.release()
  let rerun = try kiosk("sync", environment: environment)
  #expect(rerun.status == 0, "\(rerun.errors)")
  #expect(try kiosk("--json", "sync", "--check", environment: environment).output.contains("\"behind\":[]"))
}

@Test func syncCheckSaysWhatTheTillKnowsWithoutAHeadOffice() throws {
  let (journal, kiosk) = try tillWithClosedDays(2)
  let named = ["KIOSK_TILL": "north"]

  let never = try kiosk("sync", "--check", environment: named)
  #expect(never.status == 0, "\(never.errors)")
  #expect(
    never.lines == ["till 'north': 2 behind as far as it knows (days 1 and 2)", "no sync has run from this journal"])

  // Given: a sync noted as running by a process that is gone.
  let status = """
    {"outcome":"running","pid":2147483646,"shipped":[],"started":"2026-12-05T09:00:00Z","till":"north"}

    """
  try status.write(toFile: journal.path + ".sync-status", atomically: true, encoding: .utf8)
  let vanished = try kiosk("sync", "--check", environment: [:])
  #expect(vanished.status == 0, "\(vanished.errors)")
  #expect(
    vanished.lines.last
      == "the last sync, started 2026-12-05T09:00:00Z, ended without a word: its process (2147483646) is gone "
      + "(killed?); run 'kiosk sync'")

  // Given: a sync that stopped, under another name than the one asked about.
  let stopped = """
    {"ended":"2026-12-05T09:00:02Z","outcome":"stopped","pid":1,"reason":"the head office is unreachable: x",\
    "shipped":[1],"started":"2026-12-05T09:00:00Z","till":"south"}

    """
  try stopped.write(toFile: journal.path + ".sync-status", atomically: true, encoding: .utf8)
  #expect(
    try kiosk("sync", "--check", environment: named).lines.last
      == "the last sync (as till 'south'), started 2026-12-05T09:00:00Z, stopped 2026-12-05T09:00:02Z "
      + "(shipped day 1): the head office is unreachable: x")
}

@Test func syncCheckAndTheBackgroundSyncRefuseWhatTheyCannotUse() throws {
  let (_, kiosk) = try tillWithClosedDays(1)
  let unnamed = try kiosk("sync", "--check", environment: ["KIOSK_TILL": ""])
  #expect(unnamed.status == 64)
  #expect(unnamed.errors.contains("sync --check needs the till's name in $KIOSK_TILL"), "\(unnamed.errors)")
  let elsewhere = try kiosk("board", "--check")
  #expect(elsewhere.status == 64)
  #expect(elsewhere.errors == "kiosk: '--check' applies to sync, not to board\n")

  // A head office without a till's name: the day closes, and says why nothing was shipped.
  let closed = try kiosk(
    "close-day", environment: ["KIOSK_HEAD_OFFICE": "host=/nonexistent dbname=hq", "KIOSK_TILL": "no/slash"])
  #expect(closed.status == 0, "\(closed.errors)")
  #expect(closed.lines.last?.hasPrefix("no sync started: the head office is configured but $KIOSK_TILL") == true)
  // No head office: the close says nothing of a sync.
  let plain = try kiosk("close-day")
  #expect(plain.status == 0)
  #expect(plain.lines.last?.hasPrefix("closed day 3: ") == true, "\(plain.lines)")
}
