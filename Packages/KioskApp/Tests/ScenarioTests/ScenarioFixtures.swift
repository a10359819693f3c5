import Foundation
import KioskApp
import KioskCommands
import KioskFeatures
import Menu
import Payment
import PaymentTesting
import ScenarioTesting
import Stock
import Tabs
import Testing

// The literal world the scenarios start from: a small menu, ids with names,
// and the keys the actions move money under.

let latte = Item.ID(raw: 1)
let espresso = Item.ID(raw: 2)
/// Dearer than the processor's limit (`ProcessorRules.chargeLimit`) in twos.
let urn = Item.ID(raw: 3)
let notOnTheMenu = Item.ID(raw: 99)

let menu = MenuState(items: [
  latte: Item(name: "Latte", price: 4.5, recipe: [.beans: 1, .milk: 2, .cup: 1]),
  espresso: Item(name: "Espresso", price: 3, recipe: [.beans: 1, .cup: 1]),
  urn: Item(name: "Catering Urn", price: 600, recipe: [.beans: 20, .cup: 1]),
])

let ada = Tab.ID(raw: 1)
let bo = Tab.ID(raw: 2)
let nobody = Tab.ID(raw: 9)

let k1 = IdempotencyKey("k_1")
let k2 = IdempotencyKey("k_2")
let k3 = IdempotencyKey("k_3")

/// The time of every receipt: the scenario world's frozen clock.
let now = ScenarioWorld.now

extension Given where Model == KioskModel {
  /// Starts from these slices, an empty undo history and `processor`.
  init(
    tabs: TabsState, stock: StockState, menu: MenuState = menu, undo: [UndoHistory.Entry] = [],
    processor: ProcessorState = ProcessorState(), sourceLocation: SourceLocation = #_sourceLocation
  ) {
    self.init(
      TillState(menu: menu, stock: stock, tabs: tabs, undo: undo, processor: processor), sourceLocation: sourceLocation)
  }
}

/// A charge the processor made under `key`, as `reference`.
func charged(_ amount: Decimal, _ key: IdempotencyKey, as reference: String) -> ProcessorLedger.Entry {
  ProcessorLedger.Entry(kind: .charge, key: key, reference: reference, amount: amount)
}

/// A refund the processor made of `charge` under `key`, as `reference`.
func refunded(_ charge: String, _ amount: Decimal, _ key: IdempotencyKey, as reference: String)
  -> ProcessorLedger.Entry
{
  ProcessorLedger.Entry(kind: .refund, key: key, reference: reference, amount: amount, charge: charge)
}

/// A tab of `lines` for `customer`.
func tab(_ customer: String, _ lines: [Item.ID]) -> Tab {
  Tab(customer: customer, lines: lines)
}

/// The charge call of `amount` under `key`.
func charge(_ amount: Decimal, _ key: IdempotencyKey) -> PaymentGatewayMock.Call {
  .charge(.init(amount: amount, key: key))
}

/// The refund call of `amount` of `reference` under `key`.
func refund(_ reference: String, _ amount: Decimal, _ key: IdempotencyKey) -> PaymentGatewayMock.Call {
  .refund(.init(reference: reference, amount: amount, key: key))
}

extension ActionOutcome {
  /// The outcome of a refused action.
  static func refused(_ error: KioskError) -> ActionOutcome { ActionOutcome(record: nil, refusal: .kiosk(error)) }
  /// The outcome of an action that journals `record`.
  static func journaled(_ record: KioskRecord) -> ActionOutcome { ActionOutcome(record: record, refusal: nil) }
  /// The outcome of an undo with nothing to undo.
  static let nothing = ActionOutcome(record: nil, refusal: nil)
}
