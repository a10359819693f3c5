import Clock
import Foundation
import Menu
import Payment
import Stock
import Tabs
import Testing

@Test func settlingDecrementsStockAndChargesOnce() throws {
  var world = TabsTestWorld()
  world.menu.items[latte] = Item(name: "Latte", price: 5, recipe: [.beans: 1, .milk: 2, .cup: 1])
  world.stock.units = [.beans: 10, .milk: 10, .cup: 10]

  let tab = world.openTab(for: "Ada")
  try world.add(latte, to: tab)
  let receipt = try world.settle(tab, key: key(for: tab))

  #expect(receipt == Receipt(tab: tab, total: 5, chargedAt: world.frozenNow, reference: "mock_ok", key: key(for: tab)))
  #expect(world.stock.units == [.beans: 9, .milk: 8, .cup: 9])
  #expect(world.tabs == TabsState(open: [:], nextID: 2, settled: SettledTabs(count: 1, total: 5)))
}

@Test func commitAppliesARecordedSettlementWithoutTheGatewayOrTheClock() throws {
  var world = DecliningWorld()  // its gateway refuses everything: commit must not call it
  world.menu = sampleMenu
  world.stock.units = [.beans: 5, .milk: 5, .cup: 5]
  let tab = world.openTab(for: "Ada")
  try world.add(latte, to: tab)
  try world.add(espresso, to: tab)
  let settlement = try world.settlement(for: tab)
  #expect(
    settlement
      == Settlement(
        tab: tab, contents: Tab(customer: "Ada", lines: [latte, espresso]), total: 8,
        needs: [.beans: 2, .milk: 2, .cup: 2]))
  world.commit(settlement)
  #expect(world.stock.units == [.beans: 3, .milk: 3, .cup: 3])
  #expect(world.tabs == TabsState(open: [:], nextID: 2, settled: SettledTabs(count: 1, total: 8)))
}

@Test func reopeningASettledTabPutsItBackAsItWasAndUncountsIt() throws {
  var tabs = TabsState(
    open: [Tab.ID(raw: 1): Tab(customer: "Ada", lines: [latte]), Tab.ID(raw: 2): Tab(customer: "Grace")], nextID: 3)
  let before = tabs
  tabs.settle(Tab.ID(raw: 1), total: 5)
  #expect(
    tabs
      == TabsState(open: [Tab.ID(raw: 2): Tab(customer: "Grace")], nextID: 3, settled: SettledTabs(count: 1, total: 5)))
  tabs.reopen(Tab.ID(raw: 1), as: Tab(customer: "Ada", lines: [latte]), total: 5)
  #expect(tabs == before)
}

@Test func aTabNotOpenIsSettledWhenItsNumberWasIssuedAndUnknownOtherwise() {
  let tabs = TabsState(open: [Tab.ID(raw: 2): Tab(customer: "Grace")], nextID: 4)
  #expect(tabs.refusal(forMissing: Tab.ID(raw: 1)) == .alreadySettled(Tab.ID(raw: 1)))
  #expect(tabs.refusal(forMissing: Tab.ID(raw: 3)) == .alreadySettled(Tab.ID(raw: 3)))
  #expect(tabs.refusal(forMissing: Tab.ID(raw: 4)) == .unknownTab(Tab.ID(raw: 4)))
  #expect(tabs.refusal(forMissing: Tab.ID(raw: 0)) == .unknownTab(Tab.ID(raw: 0)))
  #expect(tabs.refusal(forMissing: Tab.ID(raw: -1)) == .unknownTab(Tab.ID(raw: -1)))
}

@Test func settlingAnUnknownTabChangesNothing() {
  var world = TabsTestWorld()
  world.menu = sampleMenu
  let before = world.slices
  #expect(throws: KioskError.unknownTab(Tab.ID(raw: 3))) {
    try world.settle(Tab.ID(raw: 3), key: key(for: Tab.ID(raw: 3)))
  }
  #expect(world.slices == before)
}

@Test func settlingTwiceIsRefusedAndChangesNothing() throws {
  var world = TabsTestWorld()
  world.menu = sampleMenu
  world.stock.units = [.beans: 5, .cup: 5]
  let tab = world.openTab(for: "Ada")
  try world.add(espresso, to: tab)
  _ = try world.settle(tab, key: key(for: tab))
  let before = world.slices
  #expect(throws: KioskError.alreadySettled(tab)) { try world.settle(tab, key: key(for: tab)) }
  #expect(world.slices == before)
}

@Test func aShortageInTheSecondLineOfARecipeLoopChangesNothing() throws {
  var world = TabsTestWorld()
  world.menu = sampleMenu
  world.stock.units = [.beans: 5, .milk: 3, .cup: 5]
  let tab = world.openTab(for: "Grace")
  try world.add(latte, to: tab)
  try world.add(latte, to: tab)  // each fits alone; together they need 4 milk
  let before = world.slices
  #expect(throws: KioskError.shortage(.milk)) { try world.settle(tab, key: key(for: tab)) }
  #expect(world.slices == before)
}

@Test func aDeclinedChargeChangesNothing() throws {
  var world = DecliningWorld()
  world.menu = sampleMenu
  world.stock.units = [.beans: 5, .milk: 5, .cup: 5]
  let tab = world.openTab(for: "Ada")
  try world.add(latte, to: tab)
  let before = world.slices
  #expect(throws: KioskError.payment(.declined(reason: "card refused"))) { try world.settle(tab, key: key(for: tab)) }
  #expect(world.slices == before)
}

/// The address of a native dictionary's storage buffer. A write to a
/// dictionary whose buffer is shared copies it first, so an unchanged address
/// after a write proves the write went to the one buffer, in place.
func storageAddress<Key, Value>(of dictionary: [Key: Value]) -> UInt {
  precondition(MemoryLayout<[Key: Value]>.size == MemoryLayout<UInt>.size)
  return unsafeBitCast(dictionary, to: UInt.self)
}

@Test func settlingWritesStockAndTabsInPlaceThroughTheCapabilities() throws {
  var world = TabsTestWorld()
  world.menu = sampleMenu
  world.stock.units = Dictionary(uniqueKeysWithValues: Ingredient.allCases.map { ($0, 1_000) })
  let tab = world.openTab(for: "Ada")
  try world.add(latte, to: tab)
  let stockBuffer = storageAddress(of: world.stock.units)
  let tabsBuffer = storageAddress(of: world.tabs.open)
  _ = try world.settle(tab, key: key(for: tab))
  #expect(world.stock.units[.milk] == 998)
  #expect(storageAddress(of: world.stock.units) == stockBuffer)
  #expect(storageAddress(of: world.tabs.open) == tabsBuffer)
}

@Test func aCopiedSliceDoesGetANewBuffer() throws {
  // The control for the test above: the probe does see a copy when one happens.
  var world = TabsTestWorld()
  world.stock.units = [.milk: 10]
  let kept = world.stock
  let before = storageAddress(of: world.stock.units)
  try world.restock(.milk, count: 1)
  #expect(storageAddress(of: world.stock.units) != before)
  #expect(kept.units[.milk] == 10)
}

/// The slices kept in one stored value, as a world might when a slice lives
/// inside another structure: the capabilities are then witnessed by accessors.
struct SliceStorage {
  var menu = MenuState()
  var tabs = TabsState()
  var stock = StockState()
}

/// Witnesses the write capabilities with `_read` / `_modify`, as linkgen's
/// stored links and the kiosk's journal do: still in place.
struct YieldingWorld: ~Copyable, HasMutableMenu, HasMutableTabs, HasMutableStock, LinkMockPayment, LinkFixedClock {
  var storage = SliceStorage()
  var menu: MenuState {
    _read { yield storage.menu }
    _modify { yield &storage.menu }
  }
  var tabs: TabsState {
    _read { yield storage.tabs }
    _modify { yield &storage.tabs }
  }
  var stock: StockState {
    _read { yield storage.stock }
    _modify { yield &storage.stock }
  }
  let frozenNow = Date(timeIntervalSince1970: 1_750_000_000)
}

/// Witnesses the stock capability with a computed `get` / `set`: the one
/// spelling the project never uses on a capability, because it copies.
struct ComputedWorld: ~Copyable, HasMutableMenu, HasMutableTabs, HasMutableStock, LinkMockPayment, LinkFixedClock {
  var storage = SliceStorage()
  var menu = MenuState()
  var tabs = TabsState()
  var stock: StockState {
    get { storage.stock }
    set { storage.stock = newValue }
  }
  let frozenNow = Date(timeIntervalSince1970: 1_750_000_000)
}

@Test func yieldingAccessorWitnessesWriteInPlace() throws {
  var world = YieldingWorld()
  world.menu = sampleMenu
  world.stock.units = Dictionary(uniqueKeysWithValues: Ingredient.allCases.map { ($0, 1_000) })
  let tab = world.openTab(for: "Ada")
  try world.add(latte, to: tab)
  let stockBuffer = storageAddress(of: world.storage.stock.units)
  let tabsBuffer = storageAddress(of: world.storage.tabs.open)
  _ = try world.settle(tab, key: key(for: tab))
  #expect(world.storage.stock.units[.milk] == 998)
  #expect(storageAddress(of: world.storage.stock.units) == stockBuffer)
  #expect(storageAddress(of: world.storage.tabs.open) == tabsBuffer)
}

@Test func aComputedGetSetWitnessCopiesTheSliceOnEveryWrite() throws {
  // The control for the in-place tests: the probe sees the copy that a computed
  // witness makes (get returns a second reference, the write copies, set stores it).
  var world = ComputedWorld()
  world.storage.stock.units = [.milk: 10]
  let before = storageAddress(of: world.storage.stock.units)
  try world.restock(.milk, count: 1)
  #expect(world.storage.stock.units[.milk] == 11)
  #expect(storageAddress(of: world.storage.stock.units) != before)
}
