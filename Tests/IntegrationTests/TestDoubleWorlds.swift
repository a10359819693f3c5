import ClockTesting
import Foundation
import Menu
import Payment
import PaymentTesting
import Stock
import Tabs

// Three more worlds, each swapping links and nothing else. Their conformance
// lists are generated from codegen.yaml (Generated/IntegrationTests/).

let frozen = Date(timeIntervalSince1970: 1_750_000_000)
let latte = Item.ID(raw: 1)
let espresso = Item.ID(raw: 2)
let doubleMenu = MenuState(items: [
  latte: Item(name: "Latte", price: 4.5, recipe: [.beans: 1, .milk: 2, .cup: 1]),
  espresso: Item(name: "Espresso", price: 3, recipe: [.beans: 1, .cup: 1]),
])
let doubleStock = StockState(units: [.beans: 10, .milk: 10, .cup: 10])

/// The real stateful gateway and a frozen clock.
struct StripeTestWorld: ~Copyable {
  var menu = doubleMenu
  var tabs = TabsState()
  var stock = doubleStock
  // linkgen:StripeTestWorld-storage-end (`linkgen new-domain NAME --world …` declares new slices above)
  var stripeGateway = StripeGateway(sessionToken: "test")
  let frozenNow = frozen
}

/// Recording mocks for both services, stored in the world so a test reads them after a command.
struct RecordingWorld: ~Copyable {
  var menu = doubleMenu
  var tabs = TabsState()
  var stock = doubleStock
  // linkgen:RecordingWorld-storage-end (`linkgen new-domain NAME --world …` declares new slices above)
  var paymentMock = PaymentGatewayMock()
  var clockMock = KioskClockMock()
}

/// The payment service as a closure witness.
struct WitnessWorld: ~Copyable {
  var menu = doubleMenu
  var tabs = TabsState()
  var stock = doubleStock
  // linkgen:WitnessWorld-storage-end (`linkgen new-domain NAME --world …` declares new slices above)
  var paymentWitness: PaymentGatewayWitness
  let frozenNow = frozen
}
