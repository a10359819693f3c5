import Foundation
import Journal
import KioskApp
import Menu
import Payment
import Stock
import Tabs
import Testing

func temporaryJournalPath() -> String {
  FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-\(UUID().uuidString).journal").path
}

func storageAddress<Key, Value>(of dictionary: [Key: Value]) -> UInt {
  precondition(MemoryLayout<[Key: Value]>.size == MemoryLayout<UInt>.size)
  return unsafeBitCast(dictionary, to: UInt.self)
}

@Test func theProductionWorldChargesThroughItsStoredStripeSession() throws {
  let path = temporaryJournalPath()
  defer { try? FileManager.default.removeItem(atPath: path) }
  let journal = try DurableJournal(path: path)
  var world = KioskWorld(menu: KioskDefaults.menu, stock: KioskDefaults.stock, journal: journal)
  let first = world.openTab(for: "Ada")
  let second = world.openTab(for: "Grace")
  try world.add(Item.ID(raw: 1), to: first)
  try world.add(Item.ID(raw: 4), to: second)
  #expect(try world.settle(first).reference == "ch_local_1")
  #expect(try world.settle(second).reference == "ch_local_2")
  #expect(world.stripeGateway.nonce == 2)
}

@Test func restoringASnapshotLeavesTheGatewaySessionAlone() throws {
  let path = temporaryJournalPath()
  defer { try? FileManager.default.removeItem(atPath: path) }
  let journal = try DurableJournal(path: path)
  var world = KioskWorld(menu: KioskDefaults.menu, stock: KioskDefaults.stock, journal: journal)
  let checkpoint = world.snapshot
  let tab = world.openTab(for: "Ada")
  try world.add(Item.ID(raw: 2), to: tab)
  _ = try world.settle(tab)
  world.restore(checkpoint)
  #expect(world.snapshot == checkpoint)
  #expect(world.stripeGateway.nonce == 1)
}

@Test func aLargeMenuIsReadAndAStockWriteHappensInPlaceInTheProductionWorld() throws {
  let path = temporaryJournalPath()
  defer { try? FileManager.default.removeItem(atPath: path) }
  let journal = try DurableJournal(path: path)
  var menu = MenuState()
  for raw in 1...10_000 {
    menu.items[Item.ID(raw: raw)] = Item(name: "Item \(raw)", price: 1, recipe: [.cup: 1])
  }
  var world = KioskWorld(menu: menu, stock: StockState(units: [.cup: 100_000]), journal: journal)
  let menuBuffer = storageAddress(of: world.menu.items)
  let stockBuffer = storageAddress(of: world.stock.units)
  let tab = world.openTab(for: "Ada")
  for raw in 1...50 { try world.add(Item.ID(raw: raw), to: tab) }
  _ = try world.settle(tab)
  #expect(world.stock.units[.cup] == 100_000 - 50)
  #expect(storageAddress(of: world.stock.units) == stockBuffer)
  #expect(storageAddress(of: world.menu.items) == menuBuffer)
}
