import Foundation
import KioskCommands
import Menu
import Stock
import Tabs
import Testing

@testable import KioskApp

let menu = MenuState(items: [Item.ID(raw: 1): Item(name: "Latte", price: 5, recipe: [.milk: 2, .cup: 1])])
let stock = StockState(units: [.milk: 10, .cup: 10])
let receipt = Receipt(
  tab: Tab.ID(raw: 1), total: 5, chargedAt: Date(timeIntervalSince1970: 1_750_000_000), reference: "ch_recorded")

/// A day as journaled, with the gateway's and the clock's answers inside it.
let day: [KioskRecord] = [
  .initialized(menu: menu, stock: stock),
  .opened(tab: Tab.ID(raw: 1), customer: "Ada"),
  .added(item: Item.ID(raw: 1), tab: Tab.ID(raw: 1)),
  .settled(receipt),
  .restocked(ingredient: .milk, count: 3),
  .undone(refund: nil),
]

@Test func replayRebuildsTheStateFromRecordedOutcomesAlone() throws {
  var world = ReplayWorld()  // no gateway, no clock: replay cannot call them
  let history = try KioskReplay.replay(day, into: &world)
  #expect(
    world.snapshot
      == KioskSnapshot(
        menu: menu,
        stock: StockState(units: [.milk: 8, .cup: 9]),
        tabs: TabsState(open: [:], nextID: 2, settled: SettledTabs(count: 1, total: 5))))
  #expect(history.entries.map(\.record) == Array(day[1...3]))
}

@Test func replayingTwiceGivesByteIdenticalCanonicalSnapshots() throws {
  let verification = try KioskReplay.verify(day)
  #expect(verification.recordCount == 6)
  #expect(verification.isDeterministic)
  #expect(verification.digest.hasPrefix("crc32c:"))
}

@Test func aRecordThatDoesNotApplyIsAReplayErrorNamingIt() {
  var world = ReplayWorld()
  let broken: [KioskRecord] = [
    .initialized(menu: menu, stock: stock), .added(item: Item.ID(raw: 1), tab: Tab.ID(raw: 4)),
  ]
  #expect(throws: ReplayError(sequence: 2, reason: "unknownTab(Tabs.Tab.ID(raw: 4))")) {
    _ = try KioskReplay.replay(broken, into: &world)
  }
  var other = ReplayWorld()
  #expect(throws: ReplayError(sequence: 1, reason: "the first record must initialize the menu and stock")) {
    _ = try KioskReplay.replay([.restocked(ingredient: .milk, count: 1)], into: &other)
  }
}

@Test func aSettleWhoseTotalDisagreesWithTheMenuIsRefused() {
  var world = ReplayWorld()
  var wrong = receipt
  wrong.total = 6
  let records = Array(day[0...2]) + [.settled(wrong)]
  #expect(throws: ReplayError(sequence: 4, reason: "tab #1 totals 5.00, the receipt says 6.00")) {
    _ = try KioskReplay.replay(records, into: &world)
  }
}

/// Both amounts read as money, never as minor units (`500.00`, not `500`),
/// and an amount in fractions of a cent keeps every digit.
@Test func aTotalMismatchNamesBothAmountsAsMoneyWithEveryDigit() {
  for (total, said) in [(Decimal(500), "500.00"), (Decimal(string: "4.555")!, "4.555")] {
    var world = ReplayWorld()
    var wrong = receipt
    wrong.total = total
    #expect(throws: ReplayError(sequence: 4, reason: "tab #1 totals 5.00, the receipt says \(said)")) {
      _ = try KioskReplay.replay(Array(day[0...2]) + [.settled(wrong)], into: &world)
    }
  }
}

@Test func canonicalBytesDoNotDependOnInsertionOrder() {
  var forward = StockState()
  var backward = StockState()
  for ingredient in Ingredient.allCases { forward.units[ingredient] = 1 }
  for ingredient in Ingredient.allCases.reversed() { backward.units[ingredient] = 1 }
  let a = KioskSnapshot(menu: menu, stock: forward, tabs: TabsState())
  let b = KioskSnapshot(menu: menu, stock: backward, tabs: TabsState())
  #expect(a.canonicalJSON() == b.canonicalJSON())
  #expect(a.digest == b.digest)
  let c = KioskSnapshot(menu: menu, stock: StockState(units: [.milk: 2]), tabs: TabsState())
  #expect(a.canonicalJSON() != c.canonicalJSON())
}

/// Equal dictionaries with different storage iterate in different orders;
/// the canonical bytes must not follow them.
@Test func canonicalBytesDoNotDependOnDictionaryStorage() {
  var small = TabsState()
  var large = TabsState(open: Dictionary(minimumCapacity: 4_096))
  for id in 1...200 {
    small.open[Tab.ID(raw: id)] = Tab(customer: "Guest \(id)", lines: [latte])
    large.open[Tab.ID(raw: 201 - id)] = Tab(customer: "Guest \(201 - id)", lines: [latte])
  }
  #expect(small == large)
  #expect(Array(small.open.keys) != Array(large.open.keys), "the two really iterate differently")
  let a = KioskSnapshot(menu: menu, stock: StockState(), tabs: small)
  let b = KioskSnapshot(menu: menu, stock: StockState(), tabs: large)
  #expect(a.canonicalJSON() == b.canonicalJSON())
}

@Test func theHistoryKeepsTheNewestHundredInOrderAsARing() {
  var history = UndoHistory()
  for count in 1...250 {
    history.push(
      UndoHistory.Entry(record: .restocked(ingredient: .milk, count: count), step: .unrestock(.milk, count: count)))
  }
  #expect(history.count == UndoHistory.depth)
  #expect(history.entries.map(\.step) == (151...250).map { .unrestock(.milk, count: $0) })
  #expect(history.pop()?.step == .unrestock(.milk, count: 250))
  history.push(UndoHistory.Entry(record: .restocked(ingredient: .cup, count: 1), step: .unrestock(.cup, count: 1)))
  #expect(history.last?.step == .unrestock(.cup, count: 1))
  #expect(history.entries.first?.step == .unrestock(.milk, count: 151))
}
