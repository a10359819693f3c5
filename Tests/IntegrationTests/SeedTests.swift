import Foundation
import KioskApp
import Menu
import Stock
import Tabs
import Testing

// The seed's two tests (Kiosk.swift, Part 10), against the generated link map.

@Test func settlingDecrementsStockAndChargesOnce() throws {
  var world = TestWorld()
  let latte = Item.ID(raw: 1)
  world.menu.items[latte] = Item(name: "Latte", price: 5, recipe: [.beans: 1, .milk: 2, .cup: 1])
  world.stock.units = [.beans: 10, .milk: 10, .cup: 10]

  let tab = world.openTab(for: "Ada")
  try world.add(latte, to: tab)
  let receipt = try world.settle(tab, key: key(for: tab))

  #expect(receipt.total == 5)
  #expect(receipt.reference == "mock_ok")
  #expect(receipt.chargedAt == world.frozenNow)
  #expect(world.stock.units[.milk] == 8)
  #expect(world.tabs.isSettled(tab))
}

@Test func shortageRollsBackCleanly() throws {
  var world = TestWorld()
  let latte = Item.ID(raw: 1)
  world.menu.items[latte] = Item(name: "Latte", price: 5, recipe: [.milk: 2])
  world.stock.units = [.milk: 2]

  let tab = world.openTab(for: "Grace")
  try world.add(latte, to: tab)

  let checkpoint = world.snapshot
  world.stock.units[.milk] = 1
  #expect(throws: KioskError.self) { try world.settle(tab, key: key(for: tab)) }
  world.restore(checkpoint)
  #expect(world.snapshot == checkpoint)
}
