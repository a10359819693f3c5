import KioskApp
import KioskFeatures
import ScenarioTesting
import Stock
import Tabs
import Testing

/// Deliveries, and what the stock on hand lets the kitchen make: what `stock` pins.
let stockScenarios: [Scenario<KioskModel>] = [
  Scenario(
    KioskFeatures.stock, "a delivery",
    description: "A delivery adds at least one unit, and never takes an ingredient over the most the stock holds."
  ) {
    Given(tabs: TabsState(), stock: StockState(units: [.beans: 5]))
    Branch("adds its units") {
      When("ten bags of beans arrive", .restock(ingredient: .beans, count: 10))
      Then("there are fifteen") { $0.stock.units[.beans] == 15 }
      ThenOutcome("`restocked` is journaled") { $0 == .journaled(.restocked(ingredient: .beans, count: 10)) }
    }
    Branch("of a new ingredient") {
      When("syrup arrives for the first time", .restock(ingredient: .syrup, count: 3))
      Then("the stock holds it beside the beans") { $0.stock.units == [.beans: 5, .syrup: 3] }
    }
    Branch("of nothing") {
      When("a delivery of zero", .restock(ingredient: .beans, count: 0))
      ThenOutcome("refused: at least one unit") { $0.refusal == .restock(.nonPositiveCount(0)) }
      Then("the stock is unchanged") { $0.stock.units == [.beans: 5] }
    }
    Branch("past the most the stock holds") {
      When("a billion bags arrive", .restock(ingredient: .beans, count: StockState.maxUnits))
      ThenOutcome("refused: over the limit") {
        $0.refusal == .restock(.overLimit(.beans, limit: StockState.maxUnits))
      }
    }
  },
  Scenario(
    KioskFeatures.stock, "the kitchen runs short",
    description:
      "A line goes on only when the stock can make it now; a settle checks the whole tab at once, before any money moves."
  ) {
    Given(
      tabs: TabsState(open: [ada: tab("Ada", [latte, latte, latte])], nextID: 2),
      stock: StockState(units: [.beans: 10, .milk: 5, .cup: 10]))
    Branch("a tab needs more milk than there is") {
      When("Ada settles three lattes", .settle(tab: ada, key: k1))
      ThenOutcome("refused: short of milk") { $0 == .refused(.shortage(.milk)) }
      ThenEffects("no charge is attempted") { $0.isEmpty }
      Then("the tab stays open and the stock whole") {
        $0.tabs.open[ada] != nil && $0.stock.units[.milk] == 5
      }
    }
    Branch("one more latte can still go on") {
      When("Ada orders a fourth latte", .add(item: latte, tab: ada))
      Then("it goes on: one latte's milk is there") { $0.tabs.open[ada]?.lines.count == 4 }
    }
  },
]
