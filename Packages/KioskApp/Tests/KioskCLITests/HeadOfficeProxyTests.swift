import Foundation
import PostgresTestServer
import Testing

// The network between a till and its head office fails, as a TCP proxy in
// front of the test server makes it (Fixtures/pg_proxy.py): it stops
// forwarding once a COPY has begun, or cuts the connection inside the
// shipment's transaction. Sync exits 69 with the day still behind, the head
// office holds nothing of it, and a rerun ships it once.

/// The proxy, listening on 127.0.0.1, in front of `server`'s Unix socket.
final class FailingProxy {
  let process = Process()
  let lifeline = Pipe()
  let port: Int

  init(_ server: ThrowawayPostgres, mode: String) throws {
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
      "Fixtures/pg_proxy.py")
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", script.path, "\(server.folder)/.s.PGSQL.5432", mode]
    let output = Pipe()
    process.standardOutput = output
    // The proxy reads its stdin only to see it close: when this process ends,
    // however it ends, the proxy ends too.
    process.standardInput = lifeline
    try process.run()
    var seen = ""
    while !seen.contains("\n") {
      let chunk = output.fileHandleForReading.availableData
      guard !chunk.isEmpty else { throw CocoaError(.fileReadUnknown) }
      seen += String(decoding: chunk, as: UTF8.self)
    }
    guard let port = Int(seen.trimmingCharacters(in: .whitespacesAndNewlines).dropFirst("port ".count)) else {
      throw CocoaError(.fileReadCorruptFile)
    }
    self.port = port
  }

  /// The connection string through the proxy, over TCP (keepalives and `tcp_user_timeout` apply).
  /// The proxy speaks only the plain protocol: libpq must not ask for TLS or GSS first.
  func conninfo(_ server: ThrowawayPostgres, database: String) -> String {
    "host=127.0.0.1 port=\(port) user=\(server.user) dbname=\(database) connect_timeout=5 "
      + "sslmode=disable gssencmode=disable"
  }

  // SIGKILL, not `terminate()`: a child of the test runner inherits its blocked
  // signals, SIGTERM among them, and would never see a SIGTERM.
  deinit {
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
  }
}

@Test(arguments: ["stall-copy", "drop-in-transaction"])
func aNetworkThatStallsOrDropsMidShipmentEndsTheSyncWith69AndARerunShipsTheDayOnce(mode: String) throws {
  let server = try ThrowawayPostgres.shared.get()
  let database = try server.freshDatabase()
  let kiosk = try tillWithADayToShip(server, database: database)
  let proxy = try FailingProxy(server, mode: mode)
  var environment = headOffice(server, database: database, till: "north")
  environment["KIOSK_HEAD_OFFICE"] = proxy.conninfo(server, database: database)
  environment["KIOSK_HEAD_OFFICE_DEADLINE"] = "2"

  let failed = try kiosk("sync", environment: environment)
  #expect(failed.status == 69, "\(mode): \(failed.errors)")
  if mode == "stall-copy" { #expect(failed.errors.contains("no answer within 2 s"), "\(failed.errors)") }
  #expect(failed.lines.last == "till 'north': 1 behind as far as it knows (day 3)", "\(mode): \(failed.lines)")
  // The server rolls the shipment back once it notices the connection is gone
  // (at once when it is cut; when its backend times out the stalled one, later).
  for _ in 0..<100 {
    let open = try server.query(
      "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'kiosk' "
        + "AND state LIKE 'idle in transaction%'", database: database)
    if open == "0\n" || mode == "stall-copy" { break }
    usleep(50_000)
  }
  #expect(try server.query("SELECT count(*) FROM kiosk_days", database: database) == "2\n", "nothing half shipped")

  var direct = environment
  direct["KIOSK_HEAD_OFFICE"] = server.conninfo(database: database)
  direct["KIOSK_HEAD_OFFICE_DEADLINE"] = "30"
  // The stalled shipment's transaction still holds the day's advisory lock until
  // its backend goes: end it, as the server would when TCP gives up on the proxy.
  if mode == "stall-copy" {
    _ = try server.query(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() "
        + "AND application_name = 'kiosk'", database: database)
  }
  let rerun = try kiosk("sync", environment: direct)
  #expect(rerun.status == 0, "\(mode): \(rerun.errors)")
  #expect(rerun.lines.first?.hasPrefix("day 3: shipped, ") == true, "\(rerun.lines)")
  #expect(try server.query("SELECT count(*) FROM kiosk_days", database: database) == "3\n")
  #expect(
    try server.query("SELECT count(*) FROM kiosk_records WHERE day = 3", database: database)
      == server.query("SELECT record_count FROM kiosk_days WHERE day = 3", database: database), "each record once")
}
