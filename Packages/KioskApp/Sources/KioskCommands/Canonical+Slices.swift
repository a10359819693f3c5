import CanonicalJSON
import Menu
import Stock
import Tabs

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

// The state slices' canonical forms: dictionaries keyed by ids are objects
// keyed by the ids' digits, and ingredients are their names.

extension Ingredient {
  /// The ingredient `cursor` names.
  package static func read(_ cursor: JSONCursor) throws(CanonicalError) -> Ingredient {
    try named(try cursor.string(), at: cursor)
  }

  /// The ingredient called `name`.
  static func named(_ name: String, at cursor: JSONCursor) throws(CanonicalError) -> Ingredient {
    guard let ingredient = Ingredient(rawValue: name) else {
      throw cursor.fail(
        "unknown ingredient '\(name)'; expected one of \(Ingredient.allCases.map(\.rawValue).joined(separator: ", "))")
    }
    return ingredient
  }
}

/// Ingredient counts, as a recipe, the stock and a settle's needs hold them: `{"beans": 2}`.
enum IngredientCounts {
  static func canonical(_ counts: [Ingredient: Int]) -> JSONValue {
    .object(Dictionary(uniqueKeysWithValues: counts.map { ($0.key.rawValue, .integer($0.value)) }))
  }

  /// Counts from 0 to `StockState.maxUnits`.
  static func read(_ cursor: JSONCursor) throws(CanonicalError) -> [Ingredient: Int] {
    var counts: [Ingredient: Int] = [:]
    for (name, count) in try cursor.object() {
      counts[try Ingredient.named(name, at: count)] = try count.integer(in: 0...StockState.maxUnits)
    }
    return counts
  }
}

extension Item: CanonicalCodable {
  public var canonical: JSONValue {
    .object([
      "name": .string(name), "price": CanonicalMoney.value(price), "recipe": IngredientCounts.canonical(recipe),
    ])
  }

  public init(canonical cursor: JSONCursor) throws(CanonicalError) {
    _ = try cursor.object(keys: ["name", "price", "recipe"])
    let price = try CanonicalMoney.read(cursor.field("price"))
    guard price >= 0 else { throw try cursor.field("price").fail("a price is not negative") }
    self.init(
      name: try cursor.field("name").string(), price: price,
      recipe: try Self.recipe(cursor.field("recipe")))
  }
}

extension Item {
  /// The most units of one ingredient a recipe takes: with `Tab.maxLines`, a
  /// tab's needs stay far below what the stock may hold.
  static let maxRecipeUnits = 1_000

  static func recipe(_ cursor: JSONCursor) throws(CanonicalError) -> [Ingredient: Int] {
    var recipe: [Ingredient: Int] = [:]
    for (name, count) in try cursor.object() {
      recipe[try Ingredient.named(name, at: count)] = try count.integer(in: 0...maxRecipeUnits)
    }
    return recipe
  }
}

extension MenuState: CanonicalCodable {
  /// `{"<item id>": item}`.
  public var canonical: JSONValue {
    .object(Dictionary(uniqueKeysWithValues: items.map { (String($0.key.raw), $0.value.canonical) }))
  }

  public init(canonical cursor: JSONCursor) throws(CanonicalError) {
    var items: [Item.ID: Item] = [:]
    for (key, item) in try cursor.object() {
      items[Item.ID(raw: try JSONCursor.idKey(key, at: item))] = try Item(canonical: item)
    }
    self.init(items: items)
  }
}

extension StockState: CanonicalCodable {
  /// `{"<ingredient>": units}`.
  public var canonical: JSONValue { IngredientCounts.canonical(units) }

  public init(canonical cursor: JSONCursor) throws(CanonicalError) {
    self.init(units: try IngredientCounts.read(cursor))
  }
}

extension Tab: CanonicalCodable {
  public var canonical: JSONValue {
    .object(["customer": .string(customer), "lines": .array(lines.map { .integer($0.raw) })])
  }

  public init(canonical cursor: JSONCursor) throws(CanonicalError) {
    _ = try cursor.object(keys: ["customer", "lines"])
    var lines: [Item.ID] = []
    let lineCursors = try cursor.field("lines").array()
    guard lineCursors.count <= Tab.maxLines else { throw cursor.fail("a tab holds at most \(Tab.maxLines) lines") }
    for line in lineCursors { lines.append(Item.ID(raw: try line.id())) }
    self.init(customer: try cursor.field("customer").string(), lines: lines)
  }
}

extension SettledTabs: CanonicalCodable {
  /// `{"count": n, "total": "12.50"}`.
  public var canonical: JSONValue { .object(["count": .integer(count), "total": CanonicalMoney.value(total)]) }

  public init(canonical cursor: JSONCursor) throws(CanonicalError) {
    _ = try cursor.object(keys: ["count", "total"])
    let count = try cursor.field("count").integer(in: 0...Int.max)
    let total = try CanonicalMoney.read(cursor.field("total"))
    guard total >= 0 else { throw try cursor.field("total").fail("settled tabs do not total less than nothing") }
    self.init(count: count, total: total)
  }
}

extension TabsState: CanonicalCodable {
  /// `{"nextID": n, "open": {"<tab id>": tab}, "settled": {"count": n, "total": "…"}}`.
  public var canonical: JSONValue {
    .object([
      "nextID": .integer(nextID),
      "open": .object(Dictionary(uniqueKeysWithValues: open.map { (String($0.key.raw), $0.value.canonical) })),
      "settled": settled.canonical,
    ])
  }

  public init(canonical cursor: JSONCursor) throws(CanonicalError) {
    _ = try cursor.object(keys: ["nextID", "open", "settled"])
    var open: [Tab.ID: Tab] = [:]
    for (key, tab) in try cursor.field("open").object() {
      open[Tab.ID(raw: try JSONCursor.idKey(key, at: tab))] = try Tab(canonical: tab)
    }
    let nextID = try cursor.field("nextID").id()
    if let last = open.keys.max(), last.raw >= nextID {
      throw try cursor.field("nextID").fail("must be above every tab's id (the highest is \(last.raw))")
    }
    let settled = try SettledTabs(canonical: cursor.field("settled"))
    guard settled.count <= nextID - 1 - open.count else {
      throw try cursor.field("settled").fail(
        "counts \(settled.count) settled tabs, but only \(nextID - 1 - open.count) issued tabs are not open")
    }
    self.init(open: open, nextID: nextID, settled: settled)
  }
}
