import KioskApp
import KioskFeatures
import Payment
import ScenarioTesting
import Stock
import Tabs
import Testing

/// Ada's tab: a latte and an espresso, 7.50.
private let adasTab = TabsState(open: [ada: tab("Ada", [latte, espresso])], nextID: 2)
private let fullStock = StockState(units: [.beans: 10, .milk: 10, .cup: 10])

/// Settling a tab: its checks, the charge and the stock it consumes. What `settle` pins.
let settleScenarios: [Scenario<KioskModel>] = [
  Scenario(
    KioskFeatures.settle, "a filled tab",
    description: "Settling charges the tab's total once, under the action's key, then consumes its stock."
  ) {
    Given(tabs: adasTab, stock: fullStock)
    When("Ada settles", .settle(tab: ada, key: k1))
    Then("the tab is settled") { $0.tabs.isSettled(ada) }
    Then("its recipes are consumed") { $0.stock.units == [.beans: 8, .milk: 8, .cup: 8] }
    ThenEffects("one charge of 7.50 under k_1") { $0 == [charge(7.5, k1)] }
    ThenOutcome("the receipt is journaled with the charge's reference") {
      $0 == .journaled(.settled(Receipt(tab: ada, total: 7.5, chargedAt: now, reference: "ch_sc_1", key: k1)))
    }
    Branch("settling it again") {
      When("Ada settles again", .settle(tab: ada, key: k2))
      ThenOutcome("refused: already settled") { $0 == .refused(.alreadySettled(ada)) }
      ThenEffects("no second charge") { $0.isEmpty }
    }
    Branch("a tab nobody opened") {
      When("tab 9 is settled", .settle(tab: nobody, key: k2))
      ThenOutcome("refused: no such tab") { $0 == .refused(.unknownTab(nobody)) }
    }
  },
  Scenario(
    KioskFeatures.settle, "an empty tab",
    description: "A tab with no lines has nothing to charge."
  ) {
    Given(tabs: TabsState(open: [ada: tab("Ada", [])], nextID: 2), stock: fullStock)
    When("Ada settles", .settle(tab: ada, key: k1))
    ThenOutcome("refused: the tab is empty") { $0 == .refused(.emptyTab(ada)) }
    ThenEffects("no charge is attempted") { $0.isEmpty }
  },
  Scenario(
    KioskFeatures.settle, "a tab over the processor's limit",
    description: "The processor declines a charge over its limit; nothing is consumed and the tab stays open."
  ) {
    Given(
      tabs: TabsState(open: [ada: tab("Ada", [urn, urn])], nextID: 2),
      stock: StockState(units: [.beans: 40, .cup: 2]))
    When("Ada settles two urns", .settle(tab: ada, key: k1))
    ThenEffects("the charge of 1200.00 is attempted") { $0 == [charge(1200, k1)] }
    ThenOutcome("refused: declined over the limit") {
      $0 == .refused(.payment(.declined(reason: "over the \(ProcessorRules.chargeLimit) limit")))
    }
    Then("nothing moved") { $0.tabs.open[ada] != nil && $0.stock.units == [.beans: 40, .cup: 2] }
  },
  Scenario(
    KioskFeatures.settle, "a processor that declines",
    description:
      "A declined charge changes nothing: the tab stays open, the stock whole, the processor's session as it was."
  ) {
    Given(tabs: adasTab, stock: fullStock, processor: ProcessorState(fault: .decline))
    When("Ada settles", .settle(tab: ada, key: k1))
    ThenEffects("the charge is attempted once") { $0 == [charge(7.5, k1)] }
    ThenOutcome("refused: declined") {
      $0 == .refused(.payment(.declined(reason: "the processor declines every payment (fault injection)")))
    }
    Then("the tab stays open") { $0.tabs.open[ada] != nil && $0.undo.isEmpty }
  },
  Scenario(
    KioskFeatures.settle, "a processor that does not answer",
    description:
      "A charge with no answer is refused as timed out and changes nothing here; the shell keeps its intent open for reconciliation."
  ) {
    Given(tabs: adasTab, stock: fullStock, processor: ProcessorState(fault: .timeout))
    When("Ada settles", .settle(tab: ada, key: k1))
    ThenEffects("the charge is attempted once") { $0 == [charge(7.5, k1)] }
    ThenOutcome("refused: timed out") { $0 == .refused(.payment(.timedOut)) }
    Then("the tab stays open") { $0.tabs.open[ada] != nil }
  },
]
