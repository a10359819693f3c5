import KioskApp
import KioskCommands
import KioskFeatures
import Payment
import ScenarioTesting
import Stock
import Tabs
import Testing

private let stock = StockState(units: [.beans: 10, .milk: 10, .cup: 10])

/// A settled tab whose charge `ch_sc_1` is on the undo history, before a processor with `fault`.
private func settledTab(fault: ProcessorState.Fault?) -> Given<KioskModel> {
  let receipt = Receipt(tab: ada, total: 4.5, chargedAt: now, reference: "ch_sc_1", key: k1)
  return Given(
    tabs: TabsState(open: [:], nextID: 2, settled: SettledTabs(count: 1, total: 4.5)),
    stock: StockState(units: [.beans: 9, .milk: 8, .cup: 9]),
    undo: [
      UndoHistory.Entry(
        record: .settled(receipt),
        step: .reopen(ada, tab: tab("Ada", [latte]), total: 4.5, needs: [.beans: 1, .milk: 2, .cup: 1]))
    ],
    processor: ProcessorState(entries: [charged(4.5, k1, as: "ch_sc_1")], fault: fault))
}

/// Undoing each kind of command, a settle by a refund: what `undo` pins.
let undoScenarios: [Scenario<KioskModel>] = [
  Scenario(
    KioskFeatures.undo, "nothing to undo",
    description: "With an empty history, undo does nothing and journals nothing."
  ) {
    Given(tabs: TabsState(), stock: stock)
    When("undo", .undo(key: k1))
    ThenOutcome("nothing is journaled and nothing refused") { $0 == .nothing }
    ThenEffects("the processor is not called") { $0.isEmpty }
  },
  Scenario(
    KioskFeatures.undo, "undoing each command",
    description: "Undo reverts the newest command still on the history, exactly; a settle is refunded first."
  ) {
    Given(tabs: TabsState(open: [ada: tab("Ada", [latte, espresso])], nextID: 2), stock: stock)
    Branch("an opened tab closes") {
      When("Bo opens a tab", .openTab(customer: "Bo"))
      When("undo", .undo(key: k1))
      Then("tab 2 is gone and its number free again") { $0.tabs.open[bo] == nil && $0.tabs.nextID == 2 }
      ThenOutcome("`undone` is journaled, with no refund") { $0 == .journaled(.undone(refund: nil, key: nil)) }
    }
    Branch("an added line comes off") {
      When("Ada orders an espresso", .add(item: espresso, tab: ada))
      When("undo", .undo(key: k1))
      Then("the tab is as before") { $0.tabs.open[ada]?.lines == [latte, espresso] && $0.undo.isEmpty }
    }
    Branch("a removed line goes back where it was") {
      When("Ada drops her latte", .remove(item: latte, tab: ada))
      When("undo", .undo(key: k1))
      Then("the latte is first again") { $0.tabs.open[ada]?.lines == [latte, espresso] }
    }
    Branch("a delivery is taken back") {
      When("milk arrives", .restock(ingredient: .milk, count: 6))
      When("undo", .undo(key: k1))
      Then("the milk is as before") { $0.stock.units[.milk] == 10 }
    }
    Branch("a settle is refunded") {
      When("Ada settles", .settle(tab: ada, key: k1))
      When("undo", .undo(key: k2))
      ThenEffects("the charge is refunded in full under the undo's key") { $0 == [refund("ch_sc_1", 7.5, k2)] }
      Then("the tab is open again and its stock back") {
        $0.tabs.open[ada] != nil && $0.stock.units == [.beans: 10, .milk: 10, .cup: 10]
      }
      ThenOutcome("`undone` is journaled with the refund's reference and key") {
        $0 == .journaled(.undone(refund: "re_sc_2", key: k2))
      }
    }
    Branch("a refused command leaves nothing to undo") {
      When("Ada orders item 99", .add(item: notOnTheMenu, tab: ada))
      When("undo", .undo(key: k1))
      ThenOutcome("nothing is undone") { $0 == .nothing }
      Then("the tab is untouched") { $0.tabs.open[ada]?.lines == [latte, espresso] }
    }
    Branch("undo twice goes two commands back") {
      When("Bo opens a tab", .openTab(customer: "Bo"))
      When("Bo orders a latte", .add(item: latte, tab: bo))
      When("undo", .undo(key: k1))
      Then("Bo's tab is empty") { $0.tabs.open[bo]?.lines == [] }
      When("undo again", .undo(key: k2))
      Then("Bo's tab is gone") { $0.tabs.open[bo] == nil && $0.undo.isEmpty }
    }
  },
  Scenario(
    KioskFeatures.undo, "a refund the processor declines",
    description:
      "When the refund is declined nothing is reverted: the tab stays settled and the settle stays on the history."
  ) {
    settledTab(fault: .decline)
    When("undo", .undo(key: k2))
    ThenEffects("the refund is attempted once") { $0 == [refund("ch_sc_1", 4.5, k2)] }
    ThenOutcome("refused: declined") {
      $0 == .refused(.payment(.declined(reason: "the processor declines every payment (fault injection)")))
    }
    Then("the tab stays settled, the settle still undoable") {
      $0.tabs.isSettled(ada) && $0.undo.count == 1
    }
  },
  Scenario(
    KioskFeatures.undo, "a refund with no answer",
    description: "A refund that times out reverts nothing; the shell keeps its intent open for reconciliation."
  ) {
    settledTab(fault: .timeout)
    When("undo", .undo(key: k2))
    ThenOutcome("refused: timed out") { $0 == .refused(.payment(.timedOut)) }
    Then("the tab stays settled") { $0.tabs.isSettled(ada) && $0.undo.count == 1 }
  },
]
