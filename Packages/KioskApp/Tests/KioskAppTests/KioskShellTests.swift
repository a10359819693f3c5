import Foundation
import Journal
import KioskApp
import Menu
import Stock
import Tabs
import Testing

@MainActor
func makeShell() throws -> KioskShell {
  KioskShell(
    world: KioskWorld(
      menu: KioskDefaults.menu, stock: KioskDefaults.stock, journal: try WriteAheadLog(path: "/dev/null")))
}

let latte = Item.ID(raw: 1)

@MainActor
@Test func aSessionThroughTheShellSettlesAndUndoes() throws {
  let shell = try makeShell()
  let start = shell.snapshot
  let tab = shell.openTab(for: "Ada")
  try shell.add(latte, to: tab)
  let beforeSettle = shell.snapshot
  let receipt = try shell.settle(tab)
  #expect(receipt.total == 4.5)
  #expect(receipt.reference == "ch_1")
  #expect(shell.snapshot.stock.units[.milk] == 28)
  #expect(shell.board == "#1 Ada: Latte — 4.5 (settled)")
  #expect(shell.undoDepth == 3)

  #expect(shell.undo())
  #expect(shell.snapshot == beforeSettle)
  #expect(shell.undo())
  #expect(shell.undo())
  #expect(shell.snapshot == start)
  #expect(!shell.undo())
}

@MainActor
@Test func aFailingCommandRollsBackAndLeavesNoUndoEntry() throws {
  let shell = try makeShell()
  let tab = shell.openTab(for: "Grace")
  let before = shell.snapshot
  let revision = shell.revision
  #expect(throws: KioskError.unknownItem) { try shell.add(Item.ID(raw: 99), to: tab) }
  #expect(throws: RestockError.nonPositiveCount(-1)) { try shell.restock(.milk, count: -1) }
  #expect(shell.snapshot == before)
  #expect(shell.revision == revision)
  #expect(shell.undoDepth == 1)
}

@MainActor
@Test func performRestoresEveryWriteOfACommandThatThrowsHalfway() throws {
  struct Abort: Error {}
  let shell = try makeShell()
  let before = shell.snapshot
  #expect(throws: Abort.self) {
    try shell.perform { world in
      _ = world.openTab(for: "Half")
      try world.restock(.cup, count: 5)
      throw Abort()
    }
  }
  #expect(shell.snapshot == before)
}

@Test func snapshotsRoundTripThroughJSON() throws {
  let snapshot = KioskSnapshot(
    menu: KioskDefaults.menu, tabs: TabsState(open: [Tab.ID(raw: 1): Tab(customer: "Ada", lines: [latte])], nextID: 2),
    stock: KioskDefaults.stock)
  let decoded = try JSONDecoder().decode(KioskSnapshot.self, from: JSONEncoder().encode(snapshot))
  #expect(decoded == snapshot)
}
