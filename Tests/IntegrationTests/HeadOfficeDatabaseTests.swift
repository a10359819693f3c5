import Foundation
import HeadOffice
import PostgresTestServer
import Testing

// The head office's database link against a real PostgreSQL server
// (`ThrowawayPostgres`): the test world keeps the real database and mocks
// payment, as in the seed. Nothing stands in for PostgreSQL here.

/// A world with the database link alone, for the tests that kill its server.
struct DatabaseWorld: LinkPostgresHeadOffice {
  var headOfficeDatabase: PostgresHeadOffice
}

/// Day `day` of `till` with `records` records and the Z report's lines: the given of each test.
func closedDay(_ till: String = "north", day: Int = 1, digest: String = "5eed0001", records: Int = 4) -> TillDay {
  TillDay(
    till: till, day: day, digest: digest,
    records: (1...records).map { sequence in
      TillDay.Record(
        sequence: sequence, kind: sequence % 2 == 0 ? "settled" : "opened", tab: sequence,
        amount: sequence % 2 == 0 ? Decimal(string: "4.50")! : nil, body: #"{"opened":{"customer":"Ada"}}"#)
    },
    sales: [
      TillDay.Sale(item: 1, name: "Latte", count: records / 2, total: Decimal(string: "4.50")! * Decimal(records / 2))
    ],
    charged: Decimal(string: "4.50")! * Decimal(records / 2), refunded: 0, settledTabs: records / 2)
}

/// The shared server, and a database of the test's own on it.
func database() throws -> (server: ThrowawayPostgres, name: String) {
  let server = try ThrowawayPostgres.shared.get()
  return (server, try server.freshDatabase())
}

@Test func theTestWorldShipsADayToTheRealDatabaseOnceWhateverTheRetries() throws {
  let (server, name) = try database()
  var world = TestWorld()
  world.headOfficeDatabase = PostgresHeadOffice(conninfo: server.conninfo(database: name))
  #expect(try world.shipToHeadOffice(closedDay()) == .stored(records: 4))
  #expect(try world.shipToHeadOffice(closedDay()) == .alreadyHeld)
  #expect(try world.shipToHeadOffice(closedDay()) == .alreadyHeld)
  #expect(try world.daysAtHeadOffice(of: "north").keys.sorted() == [1])
  #expect(try server.query("SELECT count(*) FROM kiosk_records", database: name) == "4\n")
  #expect(
    try server.query("SELECT till, day, digest, record_count, charged, settled_tabs FROM kiosk_days", database: name)
      == "north|1|5eed0001|4|9.0000|2\n")
  #expect(try server.query("SELECT item, name, count, total FROM kiosk_sales", database: name) == "1|Latte|2|9.0000\n")
  #expect(
    try server.query("SELECT sequence, kind, tab, amount FROM kiosk_records ORDER BY sequence", database: name)
      == "1|opened|1|\n2|settled|2|4.5000\n3|opened|3|\n4|settled|4|4.5000\n")
}

@Test func aDayShippedAgainWithAnotherDigestIsRefusedAndTheFirstKept() throws {
  let (server, name) = try database()
  var world = DatabaseWorld(headOfficeDatabase: PostgresHeadOffice(conninfo: server.conninfo(database: name)))
  _ = try world.shipToHeadOffice(closedDay())
  #expect(throws: HeadOfficeError.conflict(till: "north", day: 1, held: "5eed0001", shipped: "0bad0bad")) {
    try world.shipToHeadOffice(closedDay(digest: "0bad0bad", records: 6))
  }
  #expect(try server.query("SELECT count(*), max(sequence) FROM kiosk_records", database: name) == "4|4\n")
  // Another till's day 1 is its own.
  #expect(try world.shipToHeadOffice(closedDay("south", digest: "0bad0bad", records: 6)) == .stored(records: 6))
  #expect(try world.daysAtHeadOffice(of: "south").keys.sorted() == [1])
}

/// Kills the server while a large day is being shipped, at `delay`, then
/// restarts it and ships again: whatever the moment, the day is stored whole,
/// exactly once.
@Test(arguments: [0, 40_000, 150_000, 400_000])
func killingTheServerMidShipmentStoresTheDayWholeExactlyOnce(delay microseconds: Int) throws {
  let server = try ThrowawayPostgres()
  defer { server.remove() }
  let name = try server.freshDatabase()
  var world = DatabaseWorld(headOfficeDatabase: PostgresHeadOffice(conninfo: server.conninfo(database: name)))
  // Connect and create the tables first, so the kill lands in the shipment itself.
  #expect(try world.daysAtHeadOffice(of: "north").keys.sorted() == [])
  let day = closedDay(records: 60_000)
  let killed = DispatchSemaphore(value: 0)
  Thread {
    usleep(UInt32(microseconds))
    try? server.kill()
    killed.signal()
  }.start()
  let first = Result { () throws(HeadOfficeError) -> Shipment in try world.shipToHeadOffice(day) }
  killed.wait()
  try server.start()
  let second = try world.shipToHeadOffice(day)
  switch first {
  case .success(let shipment):
    #expect(shipment == .stored(records: 60_000))
    #expect(second == .alreadyHeld)
  case .failure(let error):
    guard case .unreachable = error else {
      Issue.record("a killed server made the ship fail with \(error), not as unreachable")
      return
    }
    // A commit that reached the server before the kill is kept; otherwise nothing was.
    #expect(second == .stored(records: 60_000) || second == .alreadyHeld)
  }
  #expect(
    try server.query("SELECT count(*), count(DISTINCT sequence) FROM kiosk_records", database: name) == "60000|60000\n")
  #expect(try server.query("SELECT count(*) FROM kiosk_days", database: name) == "1\n")
}

@Test func recordBodiesArriveByteForByteWhateverTheyHold() throws {
  let (server, name) = try database()
  var world = DatabaseWorld(headOfficeDatabase: PostgresHeadOffice(conninfo: server.conninfo(database: name)))
  let bodies = [
    #"{"opened":{"customer":"a\tb"}}"#, "line one\nline two\r\n", #"back\slash \N \. "#, "tab\there", "",
    "Zoë ☕️ 名前", String(repeating: "x", count: 70_000),
  ]
  var day = closedDay(records: bodies.count)
  for (index, body) in bodies.enumerated() { day.records[index].body = body }
  day.records[0].tab = nil
  #expect(try world.shipToHeadOffice(day) == .stored(records: bodies.count))
  let stored = try server.query(
    "SELECT encode(convert_to(body, 'UTF8'), 'hex') FROM kiosk_records ORDER BY sequence", database: name)
  let expected = bodies.map { body in body.utf8.map { String(format: "%02x", $0) }.joined() + "\n" }.joined()
  #expect(stored == expected)
  #expect(try server.query("SELECT count(*) FROM kiosk_records WHERE tab IS NULL", database: name) == "1\n")
}

@Test func aServerRestartedBetweenTwoDaysCostsTheTillNothing() throws {
  let server = try ThrowawayPostgres()
  defer { server.remove() }
  let name = try server.freshDatabase()
  var world = DatabaseWorld(headOfficeDatabase: PostgresHeadOffice(conninfo: server.conninfo(database: name)))
  #expect(try world.shipToHeadOffice(closedDay(day: 1)) == .stored(records: 4))
  // The kept connection dies with the server; the next request finds out, connects again, and goes on.
  try server.stop()
  try server.start()
  #expect(try world.shipToHeadOffice(closedDay(day: 2, digest: "5eed0002")) == .stored(records: 4))
  try server.kill()
  try server.start()
  #expect(try world.daysAtHeadOffice(of: "north") == [1: "5eed0001", 2: "5eed0002"])
}

/// What the server says aside is kept on the connection, not printed: libpq's
/// own processor would write it into the middle of a command's output.
@Test func aServersNoticesAreKeptOnTheConnectionNotPrinted() throws {
  let (server, name) = try database()
  let connection = try PostgresConnection(server.conninfo(database: name))
  try connection.execute("DO $$ BEGIN RAISE WARNING 'opened tab #9 for Eve'; END $$")
  try connection.execute("DO $$ BEGIN RAISE NOTICE E'two\\nlines'; END $$")
  #expect(connection.notices == ["WARNING:  opened tab #9 for Eve", "NOTICE:  two lines"])
}
