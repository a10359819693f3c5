import CanonicalJSON
import Menu
import Payment
import Stock
import Tabs

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

// The records, and the undo history's entries, in canonical form
// (docs/replay.md): what answers and recordings hold, and what a journal of
// format 3 holds (`KioskRecord+JournalEncoding.swift` writes the same bytes
// by hand). Sums are `{"<case>": {fields}}`.

extension Receipt: CanonicalCodable {
  public var canonical: JSONValue {
    .object([
      "chargedAt": .string(CanonicalDate.text(chargedAt)), "key": key.map { .string($0.raw) } ?? .null,
      "reference": .string(reference), "tab": .integer(tab.raw), "total": CanonicalMoney.value(total),
    ])
  }

  public init(canonical cursor: JSONCursor) throws(CanonicalError) {
    _ = try cursor.object(keys: ["chargedAt", "key", "reference", "tab", "total"])
    self.init(
      tab: Tab.ID(raw: try cursor.field("tab").id()), total: try CanonicalMoney.read(cursor.field("total")),
      chargedAt: try CanonicalDate.read(cursor.field("chargedAt")), reference: try cursor.field("reference").string(),
      key: try cursor.optionalField("key")?.idempotencyKey())
  }
}

extension PaymentIntent: CanonicalCodable {
  /// `{"amount", "charge", "key", "kind", "tab"}`.
  public var canonical: JSONValue {
    .object([
      "amount": CanonicalMoney.value(amount), "charge": charge.map { .string($0) } ?? .null,
      "key": .string(key.raw), "kind": .string(kind.rawValue), "tab": .integer(tab.raw),
    ])
  }

  public init(canonical cursor: JSONCursor) throws(CanonicalError) {
    _ = try cursor.object(keys: ["amount", "charge", "key", "kind", "tab"])
    let kindCursor = try cursor.field("kind")
    guard let kind = Kind(rawValue: try kindCursor.string()) else {
      throw kindCursor.fail("expected \"charge\" or \"refund\"")
    }
    self.init(
      kind: kind, key: try cursor.field("key").idempotencyKey(), tab: Tab.ID(raw: try cursor.field("tab").id()),
      amount: try CanonicalMoney.read(cursor.field("amount")), charge: try cursor.optionalField("charge")?.string())
  }
}

extension KioskRecord: CanonicalCodable {
  /// What a delivery's count may be in a record: what `restock` accepts.
  static let countRange = 1...StockState.maxUnits

  /// Every record's case: those actions journal, and the kiosk's (the first
  /// record, payment intents and their abandonment, the close of a day),
  /// which only the journal holds.
  static let cases: Set<String> = [
    "added", "dayClosed", "initialized", "opened", "paymentAbandoned", "paymentIntent", "removed", "restocked",
    "settled", "tillNamed", "undone",
  ]

  public var canonical: JSONValue {
    switch self {
    case .initialized(let menu, let stock): .sum("initialized", ["menu": menu.canonical, "stock": stock.canonical])
    case .opened(let tab, let customer): .sum("opened", ["customer": .string(customer), "tab": .integer(tab.raw)])
    case .added(let item, let tab): .sum("added", ["item": .integer(item.raw), "tab": .integer(tab.raw)])
    case .removed(let item, let tab): .sum("removed", ["item": .integer(item.raw), "tab": .integer(tab.raw)])
    case .paymentIntent(let intent): .object(["paymentIntent": intent.canonical])
    case .paymentAbandoned(let key, let reason):
      .sum("paymentAbandoned", ["key": .string(key.raw), "reason": .string(reason)])
    case .restocked(let ingredient, let count):
      .sum("restocked", ["count": .integer(count), "ingredient": .string(ingredient.rawValue)])
    case .settled(let receipt): .object(["settled": receipt.canonical])
    case .undone(let refund, let key):
      .sum("undone", ["key": key.map { .string($0.raw) } ?? .null, "refund": refund.map { .string($0) } ?? .null])
    case .dayClosed(let day, let archive): .sum("dayClosed", ["archive": .string(archive), "day": .integer(day)])
    case .tillNamed(let till): .sum("tillNamed", ["till": .string(till)])
    }
  }

  public init(canonical cursor: JSONCursor) throws(CanonicalError) {
    let (name, fields) = try cursor.sum(cases: Self.cases)
    switch name {
    case "initialized":
      _ = try fields.object(keys: ["menu", "stock"])
      self = .initialized(
        menu: try MenuState(canonical: fields.field("menu")), stock: try StockState(canonical: fields.field("stock")))
    case "opened":
      _ = try fields.object(keys: ["customer", "tab"])
      self = .opened(tab: Tab.ID(raw: try fields.field("tab").id()), customer: try fields.field("customer").string())
    case "added", "removed":
      _ = try fields.object(keys: ["item", "tab"])
      let item = Item.ID(raw: try fields.field("item").id())
      let tab = Tab.ID(raw: try fields.field("tab").id())
      self = name == "added" ? .added(item: item, tab: tab) : .removed(item: item, tab: tab)
    case "paymentIntent":
      self = .paymentIntent(try PaymentIntent(canonical: fields))
    case "paymentAbandoned":
      _ = try fields.object(keys: ["key", "reason"])
      self = .paymentAbandoned(
        key: try fields.field("key").idempotencyKey(), reason: try fields.field("reason").string())
    case "restocked":
      _ = try fields.object(keys: ["count", "ingredient"])
      self = .restocked(
        ingredient: try Ingredient.read(fields.field("ingredient")),
        count: try fields.field("count").integer(in: Self.countRange))
    case "settled":
      self = .settled(try Receipt(canonical: fields))
    case "dayClosed":
      _ = try fields.object(keys: ["archive", "day"])
      self = .dayClosed(
        day: try fields.field("day").integer(in: 1...Int.max), archive: try fields.field("archive").string())
    case "tillNamed":
      _ = try fields.object(keys: ["till"])
      self = .tillNamed(till: try fields.field("till").string())
    default:
      _ = try fields.object(keys: ["key", "refund"])
      self = .undone(
        refund: try fields.optionalField("refund")?.string(), key: try fields.optionalField("key")?.idempotencyKey())
    }
  }
}

extension UndoStep: CanonicalCodable {
  /// What a delivery's count may be in an inverse: what `restock` accepts.
  static let countRange = KioskRecord.countRange

  static let cases: Set<String> = ["closeTab", "dropLastLine", "insertLine", "reopen", "unrestock"]

  public var canonical: JSONValue {
    switch self {
    case .closeTab(let tab, let previousNextID):
      .sum("closeTab", ["previousNextID": .integer(previousNextID), "tab": .integer(tab.raw)])
    case .dropLastLine(let tab): .sum("dropLastLine", ["tab": .integer(tab.raw)])
    case .insertLine(let item, let index, let tab):
      .sum("insertLine", ["at": .integer(index), "item": .integer(item.raw), "tab": .integer(tab.raw)])
    case .reopen(let id, let tab, let total, let needs):
      .sum(
        "reopen",
        [
          "contents": tab.canonical, "needs": IngredientCounts.canonical(needs), "tab": .integer(id.raw),
          "total": CanonicalMoney.value(total),
        ])
    case .unrestock(let ingredient, let count):
      .sum("unrestock", ["count": .integer(count), "ingredient": .string(ingredient.rawValue)])
    }
  }

  public init(canonical cursor: JSONCursor) throws(CanonicalError) {
    let (name, fields) = try cursor.sum(cases: Self.cases)
    switch name {
    case "closeTab":
      _ = try fields.object(keys: ["previousNextID", "tab"])
      self = .closeTab(
        Tab.ID(raw: try fields.field("tab").id()), previousNextID: try fields.field("previousNextID").id())
    case "dropLastLine":
      _ = try fields.object(keys: ["tab"])
      self = .dropLastLine(Tab.ID(raw: try fields.field("tab").id()))
    case "insertLine":
      _ = try fields.object(keys: ["at", "item", "tab"])
      self = .insertLine(
        Item.ID(raw: try fields.field("item").id()), at: try fields.field("at").integer(in: 0...Tab.maxLines),
        tab: Tab.ID(raw: try fields.field("tab").id()))
    case "reopen":
      _ = try fields.object(keys: ["contents", "needs", "tab", "total"])
      self = .reopen(
        Tab.ID(raw: try fields.field("tab").id()), tab: try Tab(canonical: fields.field("contents")),
        total: try CanonicalMoney.read(fields.field("total")), needs: try IngredientCounts.read(fields.field("needs")))
    default:
      _ = try fields.object(keys: ["count", "ingredient"])
      self = .unrestock(
        try Ingredient.read(fields.field("ingredient")), count: try fields.field("count").integer(in: Self.countRange))
    }
  }
}

extension UndoHistory.Entry: CanonicalCodable {
  /// `{"record": record, "step": inverse}`.
  public var canonical: JSONValue { .object(["record": record.canonical, "step": step.canonical]) }

  public init(canonical cursor: JSONCursor) throws(CanonicalError) {
    _ = try cursor.object(keys: ["record", "step"])
    self.init(
      record: try KioskRecord(canonical: cursor.field("record")), step: try UndoStep(canonical: cursor.field("step")))
  }
}
