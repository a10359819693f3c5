import Clock
import Foundation
import Menu
import Payment
import Stock
import Tabs

/// The test world for this package: the mock gateway and a frozen clock. Two
/// links swapped; everything else is real.
struct TabsTestWorld: ~Copyable, HasMutableMenu, HasMutableTabs, HasMutableStock, LinkMockPayment, LinkFixedClock {
  var menu = MenuState()
  var tabs = TabsState()
  var stock = StockState()
  let frozenNow = Date(timeIntervalSince1970: 1_750_000_000)
}

/// A gateway that refuses every charge.
struct DecliningGateway: PaymentGateway {
  mutating func charge(_ amount: Decimal, key: IdempotencyKey) throws(PaymentError) -> String {
    throw .declined(reason: "card refused")
  }

  mutating func refund(_ reference: String, amount: Decimal, key: IdempotencyKey) throws(PaymentError) -> String {
    throw .declined(reason: "card refused")
  }

  func status(of key: IdempotencyKey) throws(PaymentError) -> PaymentStatus { .unknown }

  func authorize(_ amount: Decimal) async throws(PaymentError) -> Bool { false }
}

/// The same world with a declining gateway in place of the link: substitution
/// by one stored property.
struct DecliningWorld: ~Copyable, HasMutableMenu, HasMutableTabs, HasMutableStock, HasPayment, LinkFixedClock {
  var menu = MenuState()
  var tabs = TabsState()
  var stock = StockState()
  var payment = DecliningGateway()
  let frozenNow = Date(timeIntervalSince1970: 1_750_000_000)
}

let latte = Item.ID(raw: 1)
let espresso = Item.ID(raw: 2)

/// The literal menu every test starts from.
let sampleMenu = MenuState(items: [
  latte: Item(name: "Latte", price: 5, recipe: [.beans: 1, .milk: 2, .cup: 1]),
  espresso: Item(name: "Espresso", price: 3, recipe: [.beans: 1, .cup: 1]),
])

/// The three slices a tab command can touch, for golden-state comparison.
struct Slices: Equatable {
  var menu: MenuState
  var tabs: TabsState
  var stock: StockState
}

extension TabsTestWorld {
  var slices: Slices { Slices(menu: menu, tabs: tabs, stock: stock) }
}

extension DecliningWorld {
  var slices: Slices { Slices(menu: menu, tabs: tabs, stock: stock) }
}

/// A distinct idempotency key per tab, as the kiosk's journal would give.
func key(for tab: Tab.ID) -> IdempotencyKey { IdempotencyKey("k_tab_\(tab.raw)") }
