import Foundation
import HeadOfficeTesting
import Testing

@testable import HeadOffice

/// A world linking the head office in memory.
struct MemoryHeadOfficeWorld: LinkMemoryHeadOffice {
  var headOfficeMemory = InMemoryHeadOffice()
}

/// A world linking the database, with no server configured, or one that is not there.
struct DatabaseHeadOfficeWorld: LinkPostgresHeadOffice {
  var headOfficeDatabase: PostgresHeadOffice
}

/// A world linking the generated recording mock (`HeadOfficeTesting`).
struct MockedHeadOfficeWorld: LinkRecordingHeadOffice {
  var headOfficeMock = HeadOfficeServiceMock()
}

/// Day `day` of `till`, with `records` records: the given of each test.
func tillDay(_ till: String = "north", day: Int = 1, digest: String = "0a1b2c3d", records: Int = 3) -> TillDay {
  TillDay(
    till: till, day: day, digest: digest,
    records: (1...records).map { TillDay.Record(sequence: $0, kind: "opened", tab: $0, body: #"{"opened":{}}"#) },
    sales: [TillDay.Sale(item: 1, name: "Latte", count: 2, total: Decimal(string: "9.00")!)],
    charged: Decimal(string: "9.00")!, refunded: 0, settledTabs: 2)
}

@Test func aDayIsStoredOnceAndASecondDeliveryChangesNothing() throws {
  var world = MemoryHeadOfficeWorld()
  #expect(try world.shipToHeadOffice(tillDay()) == .stored(records: 3))
  #expect(try world.shipToHeadOffice(tillDay()) == .alreadyHeld)
  #expect(try world.daysAtHeadOffice(of: "north").keys.sorted() == [1])
  #expect(world.headOfficeMemory.days["north"]?[1] == tillDay())
}

@Test func aDeliveryWithAnotherDigestIsRefusedAndTheHeldDayKept() throws {
  var world = MemoryHeadOfficeWorld()
  _ = try world.shipToHeadOffice(tillDay())
  #expect(throws: HeadOfficeError.conflict(till: "north", day: 1, held: "0a1b2c3d", shipped: "ffffffff")) {
    try world.shipToHeadOffice(tillDay(digest: "ffffffff", records: 5))
  }
  #expect(world.headOfficeMemory.days["north"]?[1] == tillDay())
}

@Test func tillsKeepTheirOwnDays() throws {
  var world = MemoryHeadOfficeWorld()
  _ = try world.shipToHeadOffice(tillDay("north", day: 2))
  _ = try world.shipToHeadOffice(tillDay("south", day: 1, digest: "99999999"))
  _ = try world.shipToHeadOffice(tillDay("north", day: 1))
  #expect(try world.daysAtHeadOffice(of: "north").keys.sorted() == [1, 2])
  #expect(try world.daysAtHeadOffice(of: "south").keys.sorted() == [1])
  #expect(try world.daysAtHeadOffice(of: "east").keys.sorted() == [])
}

@Test func aHeadOfficeThatIsDownStoresNothing() throws {
  var world = MemoryHeadOfficeWorld()
  world.headOfficeMemory.failure = .unreachable("connection refused")
  #expect(throws: HeadOfficeError.unreachable("connection refused")) { try world.shipToHeadOffice(tillDay()) }
  world.headOfficeMemory.failure = nil
  #expect(try world.daysAtHeadOffice(of: "north").keys.sorted() == [])
}

@Test func theDatabaseLinkWithoutAConnectionStringSaysSo() {
  var world = DatabaseHeadOfficeWorld(headOfficeDatabase: PostgresHeadOffice(conninfo: nil))
  #expect(throws: HeadOfficeError.notConfigured) { try world.shipToHeadOffice(tillDay()) }
}

@Test func aServerThatIsNotThereIsUnreachableNotAnError() throws {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent("no-server-\(UUID().uuidString)").path
  var world = DatabaseHeadOfficeWorld(headOfficeDatabase: PostgresHeadOffice(conninfo: "host=\(folder) dbname=hq"))
  do {
    _ = try world.shipToHeadOffice(tillDay())
    Issue.record("a ship without a server succeeded")
  } catch {
    guard case .unreachable(let reason) = error else {
      Issue.record("expected unreachable, got \(error)")
      return
    }
    #expect(reason.contains(folder))
    #expect(!reason.contains("\n"))
  }
}

@Test func theRecordingMockSeesEveryShipment() throws {
  let mock = HeadOfficeServiceMock()
  mock.shipHandler = { .stored(records: $0.records.count) }
  var world = MockedHeadOfficeWorld(headOfficeMock: mock)
  #expect(try world.shipToHeadOffice(tillDay(records: 2)) == .stored(records: 2))
  #expect(mock.calls == [.ship(tillDay(records: 2))])
}

@Test func insertsNumberTheirParametersRowByRow() {
  #expect(
    PostgresHeadOffice.insert(into: "t (a, b)", rows: 2, columns: 2) == "INSERT INTO t (a, b) VALUES ($1, $2), ($3, $4)"
  )
}

@Test func aRenamedTillsDaysStayItsOwnAndNoNameIsTakenTwice() throws {
  var world = MemoryHeadOfficeWorld()
  _ = try world.shipToHeadOffice(tillDay("north", day: 1))
  _ = try world.shipToHeadOffice(tillDay("west", day: 1, digest: "77777777"))

  #expect(try world.renameAtHeadOffice(till: "north", to: "south") == .renamed)
  #expect(try world.renameAtHeadOffice(till: "north", to: "south") == .alreadyRenamed)
  // Its day 1 stays under 'north', and is the till's under 'south': sent again, it is already held.
  #expect(try world.daysAtHeadOffice(of: "south") == [1: "0a1b2c3d"])
  #expect(try world.shipToHeadOffice(tillDay("south", day: 1)) == .alreadyHeld)
  #expect(try world.shipToHeadOffice(tillDay("south", day: 2)) == .stored(records: 3))
  #expect(world.headOfficeMemory.days["north"]?.keys.sorted() == [1])
  #expect(world.headOfficeMemory.days["south"]?.keys.sorted() == [2])

  #expect(throws: HeadOfficeError.self) { try world.renameAtHeadOffice(till: "north", to: "east") }
  #expect(throws: HeadOfficeError.self) { try world.renameAtHeadOffice(till: "south", to: "west") }
  #expect(throws: HeadOfficeError.self) { try world.renameAtHeadOffice(till: "west", to: "north") }
  #expect(try world.daysAtHeadOffice(of: "west") == [1: "77777777"])
}

/// A connection string libpq cannot read, or whose `connect_timeout` would
/// wait without end (libpq's 0, a negative or an empty one), or past an
/// hour, is the configuration's fault, refused before any connection is tried.
@Test(arguments: [
  ("host=127.0.0.1 port=1 dbname=hq connect_timeout=0", "connect_timeout=0 in the connection string would wait"),
  ("postgresql://127.0.0.1:1/hq?connect_timeout=-3", "connect_timeout=-3 in the connection string would wait"),
  ("host=127.0.0.1 port=1 connect_timeout=''", "connect_timeout= in the connection string is no number"),
  ("host=127.0.0.1 port=1 connect_timeout=abc", "connect_timeout=abc in the connection string is no number"),
  ("host=127.0.0.1 port=1 connect_timeout=3601", "connect_timeout=3601 in the connection string would wait"),
  ("garbage===", "the connection string cannot be read: invalid connection option \"garbage\""),
])
func aConnectionStringThatWouldWaitWithoutEndOrCannotBeReadIsRefusedBeforeConnecting(
  conninfo: String, reason: String
) {
  var world = DatabaseHeadOfficeWorld(headOfficeDatabase: PostgresHeadOffice(conninfo: conninfo))
  #expect {
    _ = try world.shipToHeadOffice(tillDay())
  } throws: { error in
    guard case .misconfigured(let message) = error as? HeadOfficeError else { return false }
    return message.hasPrefix(reason)
  }
  // One second or an hour is the string's to say (spaces around it, as libpq
  // reads them, `\r\n` included), and so is a database's name alone, which
  // sets none: connecting is tried, and nothing answers on port 1.
  for conninfo in [
    "host=127.0.0.1 port=1 dbname=hq connect_timeout=1", "host=127.0.0.1 port=1 connect_timeout=3600",
    "host=127.0.0.1 port=1 connect_timeout=' 5\r\n'", "postgresql://127.0.0.1:1/hq?connect_timeout=5%0D%0A",
    "hq-\(UUID().uuidString)",
  ] {
    var bounded = DatabaseHeadOfficeWorld(headOfficeDatabase: PostgresHeadOffice(conninfo: conninfo))
    #expect {
      _ = try bounded.shipToHeadOffice(tillDay())
    } throws: { error in
      if case .unreachable = error as? HeadOfficeError { true } else { false }
    }
  }
}
