import Foundation
import Menu
import Stock
import Tabs
import Testing

@Test func openingTabsIssuesSequentialIDs() {
  var world = TabsTestWorld()
  let first = world.openTab(for: "Ada")
  let second = world.openTab(for: "Grace")
  #expect(first == Tab.ID(raw: 1))
  #expect(second == Tab.ID(raw: 2))
  #expect(world.tabs == TabsState(open: [first: Tab(customer: "Ada"), second: Tab(customer: "Grace")], nextID: 3))
}

@Test func addingAppendsAvailableItemsInOrder() throws {
  var world = TabsTestWorld()
  world.menu = sampleMenu
  world.stock.units = [.beans: 5, .milk: 5, .cup: 5]
  let tab = world.openTab(for: "Ada")
  try world.add(latte, to: tab)
  try world.add(espresso, to: tab)
  #expect(world.tabs.open[tab]?.lines == [latte, espresso])
}

@Test func addingRefusesUnknownTabsUnmakeableItemsAndSettledTabs() throws {
  var world = TabsTestWorld()
  world.menu = sampleMenu
  world.stock.units = [.beans: 5, .cup: 5]
  let tab = world.openTab(for: "Ada")
  let before = world.slices
  #expect(throws: KioskError.unknownTab(Tab.ID(raw: 9))) { try world.add(espresso, to: Tab.ID(raw: 9)) }
  #expect(throws: KioskError.cannotMake(latte, short: .milk)) { try world.add(latte, to: tab) }
  #expect(throws: KioskError.notOnMenu(Item.ID(raw: 77))) { try world.add(Item.ID(raw: 77), to: tab) }
  #expect(world.slices == before)
  try world.add(espresso, to: tab)
  _ = try world.settle(tab, key: key(for: tab))
  #expect(throws: KioskError.alreadySettled(tab)) { try world.add(espresso, to: tab) }
}

@Test func theBoardListsTabsOldestFirstWithTheirItemsAndTotals() throws {
  var world = TabsTestWorld()
  world.menu = sampleMenu
  world.stock.units = [.beans: 5, .milk: 5, .cup: 5]
  let ada = world.openTab(for: "Ada")
  let grace = world.openTab(for: "Grace")
  try world.add(latte, to: ada)
  try world.add(espresso, to: ada)
  try world.add(espresso, to: grace)
  let eve = world.openTab(for: "Eve")
  #expect(
    world.board == [
      BoardEntry(tab: ada, customer: "Ada", items: ["Latte", "Espresso"], total: 8, settled: false),
      BoardEntry(tab: grace, customer: "Grace", items: ["Espresso"], total: 3, settled: false),
      BoardEntry(tab: eve, customer: "Eve", items: [], total: 0, settled: false),
    ])
}
