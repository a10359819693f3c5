import CanonicalJSON
import Foundation
import KioskApp
import KioskCommands
import KioskFeatures
import Menu
import Payment
import Stock
import Tabs
import Testing

/// The kiosk's values in the canonical form of docs/replay.md (the form itself: the framework's CanonicalJSONTests).
@Suite struct KioskCanonicalFormTests {
  @Test func aTillStateRoundTripsThroughItsCanonicalForm() throws {
    let receipt = Receipt(tab: ada, total: 7.5, chargedAt: now, reference: "ch_sc_1", key: k1)
    let state = TillState(
      menu: menu, stock: StockState(units: [.beans: 8, .milk: 0]),
      tabs: TabsState(open: [bo: tab("Bo", [])], nextID: 3, settled: SettledTabs(count: 1, total: 7.5)),
      undo: [
        UndoHistory.Entry(
          record: .settled(receipt),
          step: .reopen(ada, tab: tab("Ada", [latte, espresso]), total: 7.5, needs: [.beans: 2, .milk: 2]))
      ],
      processor: ProcessorState(
        entries: [charged(7.5, k1, as: "ch_sc_1"), refunded("ch_sc_1", 7.5, k2, as: "re_sc_2")], fault: .timeout))
    let text = state.canonical.compactText
    #expect(try TillState(canonical: JSONCursor(JSONValue.parse(Array(text.utf8)))) == state)
  }

  @Test func anErrorNamesThePathOfTheValueThatIsWrong() {
    let state = JSONValue.object([
      "menu": .object([:]), "processor": ProcessorState().canonical, "stock": .object([:]), "undo": .array([]),
      "tabs": .object([
        "nextID": .integer(2),
        "open": .object([
          "1": .object(["customer": .string("Ada"), "lines": .array([.string("latte")])])
        ]),
        "settled": .object(["count": .integer(0), "total": .integer(0)]),
      ]),
    ])
    #expect(
      throws: CanonicalError(path: "state.tabs.open.1.lines[0]", reason: "expected a whole number, found a string")
    ) {
      try TillState(canonical: JSONCursor(state, path: "state"))
    }
  }

  @Test func countsThatCouldOverflowAStepAreRefused() {
    let stock = JSONValue.object(["beans": .integer(-1)])
    #expect(throws: CanonicalError.self) { try StockState(canonical: JSONCursor(stock)) }
    let tabs = JSONValue.object(["nextID": .integer(1), "open": .object(["1": tab("Ada", []).canonical])])
    #expect(
      throws: CanonicalError(path: "nextID", reason: "must be above every tab's id (the highest is 1)")
    ) { try TabsState(canonical: JSONCursor(tabs)) }
  }
}
