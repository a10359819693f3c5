import Foundation
import KioskCommands
import Menu
import Payment
import Stock
import Tabs
import _ServiceLinkerTestSupport

/// What a random record's values are drawn from: each journal form holds its
/// own range (format 3 whole cents and whole seconds, formats 1 and 2 any
/// decimal and time the encoder writes), so each test says which it checks.
struct RandomRecordValues {
  /// The tab ids drawn.
  var tabs: ClosedRange<Int>
  /// An amount of money.
  var money: (inout SeededGenerator) -> Decimal
  /// A receipt's time.
  var chargedAt: (inout SeededGenerator) -> Date
  /// The counts a `restocked` record carries.
  var restockCounts: ClosedRange<Int>
  /// Whether the records a day holds once (`initialized`, `dayClosed`, `tillNamed`) are drawn too.
  var includesDayRecords: Bool
}

/// A random record of every kind `values` allows, with text a till would not
/// make (quotes, slashes, control characters, non-ASCII).
func randomKioskRecord(_ random: inout SeededGenerator, _ values: RandomRecordValues) -> KioskRecord {
  func text() -> String { randomAwkwardText(&random) }
  /// Some ingredients, each with a count up to `most`.
  func counts(upTo most: Int) -> [Ingredient: Int] {
    var counts: [Ingredient: Int] = [:]
    for ingredient in Ingredient.allCases where Bool.random(using: &random) {
      counts[ingredient] = Int.random(in: 0...most, using: &random)
    }
    return counts
  }
  let tab = Tab.ID(raw: Int.random(in: values.tabs, using: &random))
  let key = IdempotencyKey(
    journalSalt: random.next(), sequence: UInt64.random(in: 1...9_999, using: &random), tab: tab.raw)
  let item = Item.ID(raw: Int.random(in: 1...12, using: &random))
  switch Int.random(in: 0..<(values.includesDayRecords ? 11 : 8), using: &random) {
  case 0: return .opened(tab: tab, customer: text())
  case 1: return .added(item: item, tab: tab)
  case 2: return .removed(item: item, tab: tab)
  case 3:
    let refund = Bool.random(using: &random)
    return .paymentIntent(
      PaymentIntent(
        kind: refund ? .refund : .charge, key: key, tab: tab, amount: values.money(&random),
        charge: refund ? text() : nil))
  case 4: return .paymentAbandoned(key: key, reason: text())
  case 5:
    return .settled(
      Receipt(
        tab: tab, total: values.money(&random), chargedAt: values.chargedAt(&random), reference: text(),
        key: Bool.random(using: &random) ? key : nil))
  case 6:
    return .restocked(
      ingredient: Ingredient.allCases.randomElement(using: &random)!,
      count: Int.random(in: values.restockCounts, using: &random))
  case 7:
    return .undone(refund: Bool.random(using: &random) ? text() : nil, key: Bool.random(using: &random) ? key : nil)
  case 8:
    let items = (1...Int.random(in: 1...12, using: &random)).map { id in
      (
        Item.ID(raw: id),
        // A recipe takes at most 1,000 units of an ingredient, the stock holds at most `maxUnits`.
        Item(name: text(), price: values.money(&random), recipe: counts(upTo: 1_000))
      )
    }
    return .initialized(
      menu: MenuState(items: Dictionary(uniqueKeysWithValues: items)),
      stock: StockState(units: counts(upTo: StockState.maxUnits)))
  case 9: return .dayClosed(day: Int.random(in: 1...9_999, using: &random), archive: text())
  default: return .tillNamed(till: text())
  }
}
