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

@Test func theProductionWorldChargesThroughItsStoredProcessor() throws {
  let path = temporaryJournalPath()
  defer {
    try? FileManager.default.removeItem(atPath: path)
    try? FileManager.default.removeItem(atPath: path + ".processor")
  }
  let journal = try DurableJournal(path: path)
  var world = KioskWorld(
    menu: KioskDefaults.menu, stock: KioskDefaults.stock, processor: try LocalProcessor(path: path + ".processor"),
    journal: journal)
  let first = world.openTab(for: "Ada")
  let second = world.openTab(for: "Grace")
  try world.add(Item.ID(raw: 1), to: first)
  try world.add(Item.ID(raw: 4), to: second)
  let charged = [try world.settle(first, key: key(for: first)), try world.settle(second, key: key(for: second))]
  #expect(world.processor.entries.map(\.reference) == charged.map(\.reference))
  #expect(world.processor.entries.map(\.key) == [key(for: first), key(for: second)])
}

@Test func restoringASnapshotLeavesTheGatewaySessionAlone() throws {
  let path = temporaryJournalPath()
  defer { try? FileManager.default.removeItem(atPath: path) }
  defer { try? FileManager.default.removeItem(atPath: path + ".processor") }
  let journal = try DurableJournal(path: path)
  var world = KioskWorld(
    menu: KioskDefaults.menu, stock: KioskDefaults.stock, processor: try LocalProcessor(path: path + ".processor"),
    journal: journal)
  let checkpoint = world.snapshot
  let tab = world.openTab(for: "Ada")
  try world.add(Item.ID(raw: 2), to: tab)
  _ = try world.settle(tab, key: key(for: tab))
  world.restore(checkpoint)
  #expect(world.snapshot == checkpoint)
  #expect(world.processor.entries.count == 1)
}

@Test func aLargeMenuIsReadAndAStockWriteHappensInPlaceInTheProductionWorld() throws {
  let path = temporaryJournalPath()
  defer { try? FileManager.default.removeItem(atPath: path) }
  let journal = try DurableJournal(path: path)
  var menu = MenuState()
  for raw in 1...10_000 {
    menu.items[Item.ID(raw: raw)] = Item(name: "Item \(raw)", price: 1, recipe: [.cup: 1])
  }
  defer { try? FileManager.default.removeItem(atPath: path + ".processor") }
  var world = KioskWorld(
    menu: menu, stock: StockState(units: [.cup: 100_000]), processor: try LocalProcessor(path: path + ".processor"),
    journal: journal)
  let menuBuffer = storageAddress(of: world.menu.items)
  let stockBuffer = storageAddress(of: world.stock.units)
  let tab = world.openTab(for: "Ada")
  for raw in 1...50 { try world.add(Item.ID(raw: raw), to: tab) }
  _ = try world.settle(tab, key: key(for: tab))
  #expect(world.stock.units[.cup] == 100_000 - 50)
  #expect(storageAddress(of: world.stock.units) == stockBuffer)
  #expect(storageAddress(of: world.menu.items) == menuBuffer)
}
