import KioskApp
import KioskCommands
import KioskFeatures
import Payment
import ScenarioTesting
import Stock
import Tabs
import Testing

private let stock = StockState(units: [.beans: 10, .milk: 10, .cup: 10])

/// Money under idempotency keys: what `money` pins.
let moneyScenarios: [Scenario<KioskModel>] = [
  Scenario(
    KioskFeatures.money, "a charge whose answer was lost",
    description:
      "Charging again under a key the processor already charged returns the first charge's reference and moves no money."
  ) {
    Given(
      tabs: TabsState(open: [ada: tab("Ada", [latte]), bo: tab("Bo", [espresso])], nextID: 3), stock: stock,
      processor: ProcessorState(entries: [charged(4.5, k1, as: "ch_sc_1")]))
    When("Ada's settle is sent again under k_1", .settle(tab: ada, key: k1))
    Then("settled with the first charge") { $0.tabs.isSettled(ada) }
    Then("the processor made no new charge") { $0.processor.movements == 1 }
    ThenOutcome("the receipt carries ch_sc_1") {
      $0.record == .settled(Receipt(tab: ada, total: 4.5, chargedAt: now, reference: "ch_sc_1", key: k1))
    }
    Branch("a new key charges anew") {
      When("Bo settles under k_2", .settle(tab: bo, key: k2))
      Then("the processor charged once more") { $0.processor.movements == 2 }
      ThenEffects("one charge of 3.00 under k_2") { $0 == [charge(3, k2)] }
    }
    Branch("the refund goes to the first charge") {
      When("undo under k_2", .undo(key: k2))
      ThenEffects("ch_sc_1 is refunded") { $0 == [refund("ch_sc_1", 4.5, k2)] }
    }
  },
  Scenario(
    KioskFeatures.money, "a key used for a refund",
    description: "A key names one movement: a key the processor used for a refund charges nothing."
  ) {
    Given(
      tabs: TabsState(open: [ada: tab("Ada", [latte])], nextID: 2), stock: stock,
      processor: ProcessorState(
        entries: [charged(4.5, k1, as: "ch_sc_1"), refunded("ch_sc_1", 4.5, k3, as: "re_sc_2")]))
    When("Ada settles under k_3", .settle(tab: ada, key: k3))
    ThenOutcome("refused: the key was a refund's") {
      $0 == .refused(.payment(.declined(reason: "key 'k_3' was used for a refund")))
    }
    Then("no money moved") { $0.processor.movements == 2 && $0.tabs.open[ada] != nil }
  },
  Scenario(
    KioskFeatures.money, "a refund sent twice",
    description: "Refunding again under the same key returns the first refund; the customer is refunded once."
  ) {
    Given(
      tabs: TabsState(open: [:], nextID: 2, settled: SettledTabs(count: 1, total: 4.5)),
      stock: StockState(units: [.beans: 9, .milk: 8, .cup: 9]),
      undo: [
        UndoHistory.Entry(
          record: .settled(Receipt(tab: ada, total: 4.5, chargedAt: now, reference: "ch_sc_1", key: k1)),
          step: .reopen(ada, tab: tab("Ada", [latte]), total: 4.5, needs: [.beans: 1, .milk: 2, .cup: 1]))
      ],
      processor: ProcessorState(entries: [charged(4.5, k1, as: "ch_sc_1"), refunded("ch_sc_1", 4.5, k2, as: "re_sc_2")])
    )
    When("undo under k_2, whose refund went through", .undo(key: k2))
    ThenOutcome("undone with the first refund's reference") { $0 == .journaled(.undone(refund: "re_sc_2", key: k2)) }
    Then("the processor moved no more money") { $0.processor.movements == 2 }
    Then("the tab is open again") { $0.tabs.open[ada] != nil }
  },
]
