import KioskApp
import KioskFeatures
import ScenarioTesting
import Stock
import Tabs
import Testing

/// Opening tabs and changing their lines: what `tabs` pins.
let tabsScenarios: [Scenario<KioskModel>] = [
  Scenario(
    KioskFeatures.tabs, "opening tabs",
    description: "A tab gets the next number; numbers are never reused, and nothing is charged."
  ) {
    Given(tabs: TabsState(), stock: StockState())
    When("Ada opens a tab", .openTab(customer: "Ada"))
    Then("it is tab 1, empty and unpaid") { $0.tabs.open[ada] == tab("Ada", []) }
    Then("the next tab will be 2") { $0.tabs.nextID == 2 }
    ThenEffects("the processor is not called") { $0.isEmpty }
    ThenOutcome("`opened` is journaled") { $0 == .journaled(.opened(tab: ada, customer: "Ada")) }
    Branch("a second customer gets the next number") {
      When("Bo opens a tab", .openTab(customer: "Bo"))
      Then("it is tab 2") { $0.tabs.open[bo]?.customer == "Bo" && $0.tabs.nextID == 3 }
    }
    Branch("a customer may hold two tabs") {
      When("Ada opens another tab", .openTab(customer: "Ada"))
      Then("both are hers") { $0.tabs.open.values.filter { $0.customer == "Ada" }.count == 2 }
    }
    Branch("a name that would reorder the line is refused, as `kiosk open` refuses it") {
      When("a tab is opened for a bidirectional override", .openTab(customer: "Eve\u{202E}"))
      Then("no tab opens") { $0.tabs.nextID == 2 && $0.tabs.open.count == 1 }
      ThenOutcome("refused: a control character") { $0 == .refused(.invalidName(.controlCharacter(0x202E))) }
    }
    Branch("a name of joiners alone is refused: it would print as nothing") {
      When("a tab is opened for a zero-width joiner", .openTab(customer: "\u{200D}"))
      ThenOutcome("refused: nothing visible") { $0 == .refused(.invalidName(.invisible)) }
    }
  },
  Scenario(
    KioskFeatures.tabs, "adding to a tab",
    description: "An item goes on an open tab when the menu has it and the stock can make it."
  ) {
    Given(tabs: TabsState(open: [ada: tab("Ada", [])], nextID: 2), stock: StockState(units: [.beans: 10, .cup: 10]))
    Branch("an espresso goes on") {
      When("Ada orders an espresso", .add(item: espresso, tab: ada))
      Then("the tab holds it") { $0.tabs.open[ada]?.lines == [espresso] }
      Then("nothing is consumed until the tab is settled") { $0.stock.units == [.beans: 10, .cup: 10] }
      ThenOutcome("`added` is journaled") { $0 == .journaled(.added(item: espresso, tab: ada)) }
    }
    Branch("a latte needs milk the stock has none of") {
      When("Ada orders a latte", .add(item: latte, tab: ada))
      ThenOutcome("refused: the kitchen cannot make it") { $0 == .refused(.cannotMake(latte, short: .milk)) }
      Then("the tab is unchanged") { $0.tabs.open[ada]?.lines == [] }
    }
    Branch("an item not on the menu") {
      When("Ada orders item 99", .add(item: notOnTheMenu, tab: ada))
      ThenOutcome("refused: not on the menu") { $0 == .refused(.notOnMenu(notOnTheMenu)) }
    }
    Branch("a tab nobody opened") {
      When("an espresso goes on tab 9", .add(item: espresso, tab: nobody))
      ThenOutcome("refused: no such tab") { $0 == .refused(.unknownTab(nobody)) }
      ThenEffects("the processor is not called") { $0.isEmpty }
    }
  },
  Scenario(
    KioskFeatures.tabs, "removing from a tab",
    description: "The last line of an item comes off an open tab; the others keep their order."
  ) {
    Given(
      tabs: TabsState(open: [ada: tab("Ada", [latte, espresso, latte])], nextID: 2),
      stock: StockState(units: [.beans: 10, .milk: 10, .cup: 10]))
    Branch("the last latte comes off") {
      When("Ada drops a latte", .remove(item: latte, tab: ada))
      Then("the first latte and the espresso stay, in order") { $0.tabs.open[ada]?.lines == [latte, espresso] }
      ThenOutcome("`removed` is journaled") { $0 == .journaled(.removed(item: latte, tab: ada)) }
    }
    Branch("an item that is not on the tab") {
      When("Ada drops an urn she never ordered", .remove(item: urn, tab: ada))
      ThenOutcome("refused: not on the tab") { $0 == .refused(.notOnTab(ada)) }
    }
  },
  Scenario(
    KioskFeatures.tabs, "a settled tab",
    description: "A paid tab is closed to changes: nothing goes on and nothing comes off."
  ) {
    Given(
      tabs: TabsState(open: [:], nextID: 2, settled: SettledTabs(count: 1, total: 3)),
      stock: StockState(units: [.beans: 10, .cup: 10]))
    Branch("takes nothing more") {
      When("Ada orders another espresso", .add(item: espresso, tab: ada))
      ThenOutcome("refused: already settled") { $0 == .refused(.alreadySettled(ada)) }
    }
    Branch("gives nothing back") {
      When("Ada drops her espresso", .remove(item: espresso, tab: ada))
      ThenOutcome("refused: already settled") { $0 == .refused(.alreadySettled(ada)) }
      Then("the tab is still settled") { $0.tabs.isSettled(ada) && $0.tabs.settled.count == 1 }
    }
  },
]
