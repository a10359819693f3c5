import Clock
import Foundation
import Menu
import Payment
import Stock
import Tabs

// One workload, written four ways: open a tab, add three items, settle it
// (stock consumed, a mock payment, a fixed clock; the settled tab leaves the
// open tabs and is counted), so every iteration does the same work.

let benchItems = [Item.ID(raw: 1), Item.ID(raw: 2), Item.ID(raw: 3)]

let benchMenu = MenuState(items: [
  Item.ID(raw: 1): Item(name: "Latte", price: 4.5, recipe: [.beans: 1, .milk: 2, .cup: 1]),
  Item.ID(raw: 2): Item(name: "Espresso", price: 3, recipe: [.beans: 1, .cup: 1]),
  Item.ID(raw: 3): Item(name: "Oat Latte", price: 5, recipe: [.beans: 1, .oatMilk: 2, .cup: 1]),
])

let benchStock = StockState(units: Dictionary(uniqueKeysWithValues: Ingredient.allCases.map { ($0, 1 << 60) }))

// MARK: (a) the pattern: generic capabilities, specialized for BenchWorld

@inline(never)
func workloadThroughCapabilities(_ world: inout BenchWorld, iterations: Int) -> Decimal {
  var total = Decimal.zero
  for _ in 0..<iterations {
    let tab = world.openTab(for: "Ada")
    for item in benchItems { try! world.add(item, to: tab) }
    total += try! world.settle(tab, key: key(for: tab)).total
  }
  return total
}

// MARK: (b) hand-written concrete code on plain structs

struct HandWrittenWorld {
  var menu: MenuState
  var tabs = TabsState()
  var stock: StockState
  var gateway = MockGateway()
  let frozenNow = Date(timeIntervalSince1970: 1_750_000_000)

  mutating func openTab(for customer: String) -> Tab.ID {
    let id = tabs.issueID()
    tabs.open[id] = Tab(customer: customer)
    return id
  }

  func isAvailable(_ id: Item.ID) -> Bool {
    guard let item = menu.items[id] else { return false }
    return item.recipe.allSatisfy { ingredient, needed in stock.units[ingredient, default: 0] >= needed }
  }

  mutating func add(_ item: Item.ID, to tab: Tab.ID) throws(KioskError) {
    guard let current = tabs.open[tab] else { throw tabs.refusal(forMissing: tab) }
    guard current.lines.count < Tab.maxLines else { throw .tabFull(tab) }
    guard let recipe = menu.items[item]?.recipe else { throw .notOnMenu(item) }
    if let short = stock.shortage(for: recipe) { throw .cannotMake(item, short: short) }
    tabs.open[tab]!.lines.append(item)
  }

  /// The read phase, concrete: checks the tab and the stock, prices the lines.
  func settlement(for id: Tab.ID) throws(KioskError) -> (total: Decimal, needs: [Ingredient: Int]) {
    guard let tab = tabs.open[id] else { throw tabs.refusal(forMissing: id) }
    guard !tab.lines.isEmpty else { throw .emptyTab(id) }
    var needs: [Ingredient: Int] = [:]
    for line in tab.lines {
      for (ingredient, count) in menu.items[line]?.recipe ?? [:] { needs[ingredient, default: 0] += count }
    }
    if let short = stock.shortage(for: needs) { throw .shortage(short) }
    return (tab.lines.reduce(Decimal.zero) { $0 + (menu.items[$1]?.price ?? 0) }, needs)
  }

  /// The write phase, concrete.
  mutating func commit(_ id: Tab.ID, total: Decimal, needs: [Ingredient: Int]) {
    for (ingredient, count) in needs { stock.units[ingredient, default: 0] -= count }
    if tabs.open.removeValue(forKey: id) != nil {
      tabs.settled.count += 1
      tabs.settled.total += total
    }
  }

  mutating func settle(_ id: Tab.ID) throws -> Receipt {
    let (total, needs) = try settlement(for: id)
    let receipt = Receipt(
      tab: id, total: total, chargedAt: frozenNow, reference: try gateway.charge(total, key: key(for: id)))
    commit(id, total: total, needs: needs)
    return receipt
  }
}

@inline(never)
func workloadHandWritten(_ world: inout HandWrittenWorld, iterations: Int) -> Decimal {
  var total = Decimal.zero
  for _ in 0..<iterations {
    let tab = world.openTab(for: "Ada")
    for item in benchItems { try! world.add(item, to: tab) }
    total += try! world.settle(tab).total
  }
  return total
}

// MARK: (c) services held as existentials

struct ExistentialWorld {
  var base: HandWrittenWorld
  var gateway: any PaymentGateway = MockGateway()
  var clock: any KioskClock = FixedClock(frozenNow: Date(timeIntervalSince1970: 1_750_000_000))

  /// The same phases as (b); the charge and the time go through existentials.
  mutating func settle(_ id: Tab.ID) throws -> Receipt {
    let (total, needs) = try base.settlement(for: id)
    let receipt = Receipt(
      tab: id, total: total, chargedAt: clock.now(), reference: try gateway.charge(total, key: key(for: id)))
    base.commit(id, total: total, needs: needs)
    return receipt
  }
}

@inline(never)
func workloadExistentials(_ world: inout ExistentialWorld, iterations: Int) -> Decimal {
  var total = Decimal.zero
  for _ in 0..<iterations {
    let tab = world.base.openTab(for: "Ada")
    for item in benchItems { try! world.base.add(item, to: tab) }
    total += try! world.settle(tab).total
  }
  return total
}

// MARK: (d) a struct of closures

struct ClosureDependencies {
  var charge: (Decimal, IdempotencyKey) throws -> String
  var now: () -> Date
}

struct ClosureWorld {
  var base: HandWrittenWorld
  var dependencies: ClosureDependencies

  /// The same phases as (b); the charge and the time go through closures.
  mutating func settle(_ id: Tab.ID) throws -> Receipt {
    let (total, needs) = try base.settlement(for: id)
    let receipt = Receipt(
      tab: id, total: total, chargedAt: dependencies.now(), reference: try dependencies.charge(total, key(for: id)))
    base.commit(id, total: total, needs: needs)
    return receipt
  }
}

@inline(never)
func workloadClosures(_ world: inout ClosureWorld, iterations: Int) -> Decimal {
  var total = Decimal.zero
  for _ in 0..<iterations {
    let tab = world.base.openTab(for: "Ada")
    for item in benchItems { try! world.base.add(item, to: tab) }
    total += try! world.settle(tab).total
  }
  return total
}

/// The four variants, by letter.
enum AccessVariant: String, CaseIterable {
  case a, b, c, d

  var title: String {
    switch self {
    case .a: "(a) generic capabilities, `BenchWorld`"
    case .b: "(b) hand-written, concrete"
    case .c: "(c) existentials (`any PaymentGateway`, `any KioskClock`)"
    case .d: "(d) struct of closures"
    }
  }

  /// Runs `iterations` workloads on a fresh world; returns the money taken.
  func run(iterations: Int) -> Decimal {
    let hand = HandWrittenWorld(menu: benchMenu, stock: benchStock)
    switch self {
    case .a:
      var world = BenchWorld(menu: benchMenu, stock: benchStock)
      return workloadThroughCapabilities(&world, iterations: iterations)
    case .b:
      var world = hand
      return workloadHandWritten(&world, iterations: iterations)
    case .c:
      var world = ExistentialWorld(base: hand)
      return workloadExistentials(&world, iterations: iterations)
    case .d:
      var gateway = MockGateway()
      let clock = FixedClock(frozenNow: Date(timeIntervalSince1970: 1_750_000_000))
      var world = ClosureWorld(
        base: hand, dependencies: ClosureDependencies(charge: { try gateway.charge($0, key: $1) }, now: { clock.now() })
      )
      return workloadClosures(&world, iterations: iterations)
    }
  }
}
