import Foundation
import PostgresTestServer
import Synchronization
import Testing

// A head office that stops answering never holds `kiosk sync`: each statement has
// a deadline ($KIOSK_HEAD_OFFICE_DEADLINE), after which the statement is cancelled,
// the connection given up, and sync exits 69 with the days still behind. A rerun
// ships what is missing, once. The server is made to stop answering at each stage
// of a shipment by another session holding the lock that stage needs, and, for
// the backend itself, by SIGSTOP.

/// A psql session kept open on `database`, holding whatever `sql` takes until `release()`.
final class LockingSession {
  let process = Process()
  let input = Pipe()
  let output = Pipe()

  /// Starts psql, sends `sql`, and waits until psql has printed `acknowledgement` (the lock is held).
  init(_ server: ThrowawayPostgres, database: String, sql: String, acknowledgement: String) throws {
    process.executableURL = URL(fileURLWithPath: "\(server.binaries)/psql")
    process.arguments = ["-h", server.folder, "-U", server.user, "-d", database, "-At", "-v", "ON_ERROR_STOP=1"]
    process.standardInput = input
    process.standardOutput = output
    process.standardError = output
    try process.run()
    input.fileHandleForWriting.write(Data((sql + "\n").utf8))
    var seen = ""
    while !seen.contains(acknowledgement) {
      let chunk = output.fileHandleForReading.availableData
      guard !chunk.isEmpty else { throw CocoaError(.fileReadUnknown) }
      seen += String(decoding: chunk, as: UTF8.self)
    }
  }

  /// Ends the session: its transaction rolls back and its locks go.
  func release() {
    input.fileHandleForWriting.write(Data("ROLLBACK;\n\\q\n".utf8))
    try? input.fileHandleForWriting.close()
    process.waitUntilExit()
  }
}

/// A till with two closed days shipped, and a third closed since: the next sync ships day 3.
func tillWithADayToShip(_ server: ThrowawayPostgres, database: String) throws -> KioskBinary {
  let (journal, kiosk) = try tillWithClosedDays(2)
  _ = journal
  #expect(try kiosk("sync", environment: headOffice(server, database: database, till: "north")).status == 0)
  #expect(try kiosk("shell", input: "add 5 latte\nsettle 5\nclose-day\n").status == 0)
  return kiosk
}

/// What each stage of a shipment waits for, and the statement that makes another session hold it.
let stages: [(stage: String, lock: String)] = [
  ("the days held", "BEGIN; LOCK TABLE kiosk_days IN ACCESS EXCLUSIVE MODE; SELECT 'held';"),
  ("the day's own lock", "SELECT pg_advisory_lock(hashtext('north'), 3), 'held';"),
  ("the records' COPY", "BEGIN; LOCK TABLE kiosk_records IN ACCESS EXCLUSIVE MODE; SELECT 'held';"),
  ("the sales", "BEGIN; LOCK TABLE kiosk_sales IN ACCESS EXCLUSIVE MODE; SELECT 'held';"),
  ("the stock", "BEGIN; LOCK TABLE kiosk_stock IN ACCESS EXCLUSIVE MODE; SELECT 'held';"),
]

@Test(arguments: stages.indices)
func aStageTheServerNeverAnswersEndsTheSyncWith69AndARerunShipsTheDayOnce(stage: Int) throws {
  let server = try ThrowawayPostgres.shared.get()
  let database = try server.freshDatabase()
  let kiosk = try tillWithADayToShip(server, database: database)
  var environment = headOffice(server, database: database, till: "north")
  environment["KIOSK_HEAD_OFFICE_DEADLINE"] = "1"

  let session = try LockingSession(server, database: database, sql: stages[stage].lock, acknowledgement: "held")
  let started = ContinuousClock.now
  let stopped = try kiosk("sync", environment: environment)
  let waited = ContinuousClock.now - started
  session.release()
  #expect(stopped.status == 69, "\(stages[stage].stage): \(stopped.errors)")
  #expect(stopped.errors.contains("no answer within 1 s"), "\(stages[stage].stage): \(stopped.errors)")
  #expect(stopped.lines.last == "till 'north': 1 behind as far as it knows (day 3)", "\(stopped.lines)")
  // Without the deadline it would wait for the lock until the session ended: it never would here.
  #expect(waited < .seconds(30), "\(stages[stage].stage): sync waited \(waited)")
  #expect(try server.query("SELECT count(*) FROM kiosk_days", database: database) == "2\n", "nothing half shipped")

  let rerun = try kiosk("sync", environment: environment)
  #expect(rerun.status == 0, "\(rerun.errors)")
  #expect(rerun.lines.first?.hasPrefix("day 3: shipped, ") == true, "\(rerun.lines)")
  #expect(try server.query("SELECT count(*) FROM kiosk_days", database: database) == "3\n")
  #expect(
    try server.query("SELECT count(*) FROM kiosk_records WHERE day = 3", database: database)
      == server.query(
        "SELECT record_count FROM kiosk_days WHERE day = 3", database: database), "each record once")
}

@Test(arguments: stages.indices)
func aBackendStoppedAtAnyStageEndsTheSyncWith69AndARerunShipsTheDayOnce(stage: Int) throws {
  let server = try ThrowawayPostgres.shared.get()
  let database = try server.freshDatabase()
  let kiosk = try tillWithADayToShip(server, database: database)
  var environment = headOffice(server, database: database, till: "north")
  environment["KIOSK_HEAD_OFFICE_DEADLINE"] = "2"

  // The stage's lock is held, so the sync's backend waits at that stage, where
  // it is found and stopped; then the lock goes, and only the stop remains.
  let session = try LockingSession(
    server, database: database, sql: stages[stage].lock, acknowledgement: "held")
  let outcome = Mutex<KioskBinary.Run?>(nil)
  let finished = DispatchSemaphore(value: 0)
  let syncEnvironment = environment
  DispatchQueue.global().async {
    let run = try? kiosk("sync", environment: syncEnvironment)
    outcome.withLock { $0 = run }
    finished.signal()
  }
  var backend: Int32?
  for _ in 0..<200 where backend == nil {
    let pid = try server.query(
      "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'kiosk' "
        + "AND wait_event_type = 'Lock'", database: database)
    backend = Int32(pid.trimmingCharacters(in: .whitespacesAndNewlines))
    if backend == nil { usleep(20_000) }
  }
  let pid = try #require(backend, "the sync's backend never waited on \(stages[stage].stage)")
  #expect(kill(pid, SIGSTOP) == 0)
  session.release()
  finished.wait()
  #expect(kill(pid, SIGCONT) == 0)
  let stopped = try #require(outcome.withLock { $0 })
  #expect(stopped.status == 69, "\(stages[stage].stage): \(stopped.errors)")
  #expect(stopped.errors.contains("no answer within 2 s"), "\(stages[stage].stage): \(stopped.errors)")
  #expect(stopped.lines.last == "till 'north': 1 behind as far as it knows (day 3)", "\(stopped.lines)")

  let rerun = try kiosk("sync", environment: environment)
  #expect(rerun.status == 0, "\(stages[stage].stage): \(rerun.errors)")
  #expect(rerun.lines.first?.hasPrefix("day 3: shipped, ") == true, "\(rerun.lines)")
  #expect(try server.query("SELECT count(*) FROM kiosk_days", database: database) == "3\n")
  #expect(
    try server.query("SELECT count(*) FROM kiosk_records WHERE day = 3", database: database)
      == server.query("SELECT record_count FROM kiosk_days WHERE day = 3", database: database))
}

@Test(arguments: ["0", "abc", "3601", "1e3", "-1"])
func aDeadlineThatIsNotSecondsIsAUsageError(text: String) throws {
  let (_, kiosk) = try tillWithClosedDays(1)
  let run = try kiosk(
    "sync",
    environment: ["KIOSK_TILL": "north", "KIOSK_HEAD_OFFICE": "host=/nowhere", "KIOSK_HEAD_OFFICE_DEADLINE": text])
  #expect(run.status == 64)
  #expect(run.errors.contains("KIOSK_HEAD_OFFICE_DEADLINE is the seconds a statement may take"), "\(run.errors)")
}
