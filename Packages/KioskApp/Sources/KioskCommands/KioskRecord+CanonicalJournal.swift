import CanonicalJSON
import Journal
import Menu
import Payment
import Stock
import Tabs

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

// A journal of format 3 holds each record in its canonical form
// (docs/replay.md, compact): the bytes `KioskRecord.canonical.compactText`
// gives, written here by hand for the records a command journals, since a
// command's cost is mostly its record's encoding. The first record of a
// journal and the close of a day, written once a day, go through
// `JSONValue`. Reading is the same split: the records as written here, and
// the first record (read by every command of a first day, twice), are read by
// hand, anything else by the strict parser, whose error names what is wrong.
// `CanonicalJournalTests` compares both ways with `canonical` over random
// records, and the hand reader with the parser over damaged bytes.

extension KioskRecord {
  /// Writes the record's canonical form; false, having written nothing, when
  /// an amount in it is not a whole number of minor units below
  /// `CanonicalMoney.limit` (the form cannot hold it; a menu of whole cents
  /// never makes one).
  func writeCanonical(to writer: inout JournalJSONWriter) -> Bool {
    switch self {
    case .initialized(let menu, _):
      guard menu.items.values.allSatisfy({ Self.minorUnits($0.price) != nil }) else { return false }
      writer.raw(canonical.compactBytes)
    case .dayClosed, .tillNamed:
      writer.raw(canonical.compactBytes)
    case .opened(let tab, let customer):
      writer.beginObject()
      writer.key("opened")
      writer.beginObject()
      writer.key("customer")
      writer.string(customer)
      writer.key("tab")
      writer.int(tab.raw)
      writer.endObject()
      writer.endObject()
    case .added(let item, let tab):
      Self.writeCanonical("added", item: item, tab: tab, to: &writer)
    case .removed(let item, let tab):
      Self.writeCanonical("removed", item: item, tab: tab, to: &writer)
    case .paymentIntent(let intent):
      guard let amount = Self.minorUnits(intent.amount) else { return false }
      writer.beginObject()
      writer.key("paymentIntent")
      writer.beginObject()
      writer.key("amount")
      writer.int(amount)
      writer.key("charge")
      if let charge = intent.charge { writer.string(charge) } else { writer.null() }
      writer.key("key")
      writer.string(intent.key.raw)
      writer.key("kind")
      writer.string(intent.kind.rawValue)
      writer.key("tab")
      writer.int(intent.tab.raw)
      writer.endObject()
      writer.endObject()
    case .paymentAbandoned(let key, let reason):
      writer.beginObject()
      writer.key("paymentAbandoned")
      writer.abandonment(key: key, reason: reason)
      writer.endObject()
    case .settled(let receipt):
      guard let total = Self.minorUnits(receipt.total) else { return false }
      writer.beginObject()
      writer.key("settled")
      writer.beginObject()
      writer.key("chargedAt")
      writer.string(UTCTimestamp.text(receipt.chargedAt))
      writer.key("key")
      if let key = receipt.key { writer.string(key.raw) } else { writer.null() }
      writer.key("reference")
      writer.string(receipt.reference)
      writer.key("tab")
      writer.int(receipt.tab.raw)
      writer.key("total")
      writer.int(total)
      writer.endObject()
      writer.endObject()
    case .restocked(let ingredient, let count):
      writer.beginObject()
      writer.key("restocked")
      writer.delivery(of: ingredient, count: count)
      writer.endObject()
    case .undone(let refund, let key):
      writer.beginObject()
      writer.key("undone")
      writer.beginObject()
      writer.key("key")
      if let key { writer.string(key.raw) } else { writer.null() }
      writer.key("refund")
      if let refund { writer.string(refund) } else { writer.null() }
      writer.endObject()
      writer.endObject()
    }
    return true
  }

  /// `{"<name>":{"item":I,"tab":T}}`.
  private static func writeCanonical(
    _ name: StaticString, item: Item.ID, tab: Tab.ID, to writer: inout JournalJSONWriter
  ) {
    writer.beginObject()
    writer.key(name)
    writer.beginObject()
    writer.key("item")
    writer.int(item.raw)
    writer.key("tab")
    writer.int(tab.raw)
    writer.endObject()
    writer.endObject()
  }

  /// The first amount in the record that the canonical form cannot hold (not
  /// a whole number of minor units below `CanonicalMoney.limit`), which a
  /// journal of format 3 cannot take; nil when it holds them all.
  package var amountWithoutCanonicalForm: Decimal? {
    switch self {
    case .paymentIntent(let intent): Self.minorUnits(intent.amount) == nil ? intent.amount : nil
    case .settled(let receipt): Self.minorUnits(receipt.total) == nil ? receipt.total : nil
    case .initialized(let menu, _): menu.items.values.first { Self.minorUnits($0.price) == nil }?.price
    default: nil
    }
  }

  /// `amount` in minor units when the canonical form holds it: by integer
  /// arithmetic (`exactMinorUnits`), or by `Decimal`'s for a significand too long for it.
  package static func minorUnits(_ amount: Decimal) -> Int? {
    guard let units = exactMinorUnits(of: amount) ?? CanonicalMoney.minorUnits(of: amount),
      units.magnitude < CanonicalMoney.limit.magnitude
    else { return nil }
    return units
  }

  /// The record in `bytes`, a payload of a journal of format 3: read by hand
  /// when it is as `writeCanonical` writes it, by the strict parser otherwise.
  /// Throws the parser's one-line reason when it is not a record's canonical form.
  public static func readCanonical(_ bytes: ArraySlice<UInt8>) throws(CanonicalError) -> KioskRecord {
    var reader = JournalJSONReader(bytes)
    if let record = reader.canonicalRecord(), reader.isAtEnd { return record }
    return try KioskRecord(canonical: JSONCursor(try JSONValue.parse(bytes)))
  }
}

extension JournalJSONReader {
  /// A record as `writeCanonical` writes it; nil on anything else (the parser's then).
  /// Accepts only what the strict parser accepts, with the same value.
  package mutating func canonicalRecord() -> KioskRecord? {
    guard literal("{\"") else { return nil }
    let record: KioskRecord?
    if literal("opened\":{") {
      guard key("customer"), let customer = string(), nextKey("tab"), let tab = canonicalID() else { return nil }
      record = .opened(tab: Tab.ID(raw: tab), customer: customer)
    } else if literal("added\":{") {
      guard let (item, tab) = canonicalItemAndTab() else { return nil }
      record = .added(item: item, tab: tab)
    } else if literal("removed\":{") {
      guard let (item, tab) = canonicalItemAndTab() else { return nil }
      record = .removed(item: item, tab: tab)
    } else if literal("settled\":{") {
      guard key("chargedAt"), let time = string(), let chargedAt = UTCTimestamp.date(time),
        UTCTimestamp.text(chargedAt) == time, nextKey("key"), let key = optionalIdempotencyKey(),
        nextKey("reference"), let reference = string(), nextKey("tab"), let tab = canonicalID(), nextKey("total"),
        let total = canonicalMoney()
      else { return nil }
      record = .settled(
        Receipt(tab: Tab.ID(raw: tab), total: total, chargedAt: chargedAt, reference: reference, key: key))
    } else if literal("paymentIntent\":{") {
      guard key("amount"), let amount = canonicalMoney(), nextKey("charge"), let charge = optionalString(),
        nextKey("key"), let key = idempotencyKey(), nextKey("kind"), let kindText = string(),
        let kind = PaymentIntent.Kind(rawValue: kindText), nextKey("tab"), let tab = canonicalID()
      else { return nil }
      record = .paymentIntent(
        PaymentIntent(kind: kind, key: key, tab: Tab.ID(raw: tab), amount: amount, charge: charge))
    } else if literal("restocked\":{") {
      guard key("count"), let count = int(), KioskRecord.countRange.contains(count), nextKey("ingredient"),
        let name = string(), let ingredient = Ingredient(rawValue: name)
      else { return nil }
      record = .restocked(ingredient: ingredient, count: count)
    } else if literal("undone\":{") {
      guard key("key"), let key = optionalIdempotencyKey(), nextKey("refund"), let refund = optionalString() else {
        return nil
      }
      record = .undone(refund: refund, key: key)
    } else if literal("initialized\":{") {
      guard key("menu"), let menu = canonicalMenu(), nextKey("stock"), let stock = canonicalCounts() else {
        return nil
      }
      record = .initialized(menu: menu, stock: StockState(units: stock))
    } else if literal("paymentAbandoned\":{") {
      guard key("key"), let key = idempotencyKey(), nextKey("reason"), let reason = string() else { return nil }
      record = .paymentAbandoned(key: key, reason: reason)
    } else {
      return nil
    }
    guard literal("}}") else { return nil }
    return record
  }

  /// An undo history as a checkpoint in canonical form holds it,
  /// `[{"record":…,"step":…},…]`, each record and inverse as their canonical
  /// forms write them; nil on anything else (the parser's then). Accepts only
  /// what the strict parser accepts, with the same value.
  package mutating func canonicalUndoEntries() -> [UndoHistory.Entry]? {
    guard literal("[") else { return nil }
    var entries: [UndoHistory.Entry] = []
    if literal("]") { return entries }
    repeat {
      guard literal("{\"record\":"), let record = canonicalRecord(), literal(",\"step\":"),
        let step = canonicalUndoStep(), literal("}")
      else { return nil }
      entries.append(UndoHistory.Entry(record: record, step: step))
    } while literal(",")
    guard literal("]") else { return nil }
    return entries
  }

  /// An inverse, `{"<case>":{…}}`, as its canonical form writes it.
  private mutating func canonicalUndoStep() -> UndoStep? {
    guard literal("{\"") else { return nil }
    let step: UndoStep?
    if literal("closeTab\":{") {
      guard key("previousNextID"), let previous = canonicalID(), nextKey("tab"), let tab = canonicalID() else {
        return nil
      }
      step = .closeTab(Tab.ID(raw: tab), previousNextID: previous)
    } else if literal("dropLastLine\":{") {
      guard key("tab"), let tab = canonicalID() else { return nil }
      step = .dropLastLine(Tab.ID(raw: tab))
    } else if literal("insertLine\":{") {
      guard key("at"), let at = count(upTo: Tab.maxLines), nextKey("item"), let item = canonicalID(),
        nextKey("tab"), let tab = canonicalID()
      else { return nil }
      step = .insertLine(Item.ID(raw: item), at: at, tab: Tab.ID(raw: tab))
    } else if literal("reopen\":{") {
      guard key("contents"), let contents = canonicalTab(), nextKey("needs"), let needs = canonicalCounts(),
        nextKey("tab"), let tab = canonicalID(), nextKey("total"), let total = canonicalMoney()
      else { return nil }
      step = .reopen(Tab.ID(raw: tab), tab: contents, total: total, needs: needs)
    } else if literal("unrestock\":{") {
      guard key("count"), let count = int(), UndoStep.countRange.contains(count), nextKey("ingredient"),
        let name = string(), let ingredient = Ingredient(rawValue: name)
      else { return nil }
      step = .unrestock(ingredient, count: count)
    } else {
      return nil
    }
    guard literal("}}") else { return nil }
    return step
  }

  /// A tab, `{"customer":"…","lines":[I,…]}`, at most `Tab.maxLines` lines.
  private mutating func canonicalTab() -> Tab? {
    guard literal("{"), key("customer"), let customer = string(), nextKey("lines"), literal("[") else { return nil }
    var lines: [Item.ID] = []
    if !literal("]") {
      repeat {
        guard let id = canonicalID() else { return nil }
        lines.append(Item.ID(raw: id))
      } while literal(",")
      guard literal("]") else { return nil }
    }
    guard lines.count <= Tab.maxLines, literal("}") else { return nil }
    return Tab(customer: customer, lines: lines)
  }

  /// A menu, `{"<item id>":{"name":…,"price":…,"recipe":{…}},…}`, no id
  /// twice; each price whole minor units, not negative, and each recipe's
  /// counts from 0 to `Item.maxRecipeUnits`, as `MenuState(canonical:)` reads them.
  private mutating func canonicalMenu() -> MenuState? {
    guard literal("{") else { return nil }
    var items: [Item.ID: Item] = [:]
    if literal("}") { return MenuState(items: items) }
    repeat {
      guard let key = string(), let id = JSONCursor.idKey(key), items[Item.ID(raw: id)] == nil, literal(":{"),
        self.key("name"), let name = string(), nextKey("price"), let price = canonicalMoney(), price >= 0,
        nextKey("recipe"), let recipe = canonicalCounts(upTo: Item.maxRecipeUnits), literal("}")
      else { return nil }
      items[Item.ID(raw: id)] = Item(name: name, price: price, recipe: recipe)
    } while literal(",")
    guard literal("}") else { return nil }
    return MenuState(items: items)
  }

  /// Ingredient counts, `{"beans":2,…}`, each from 0 to `most`, no ingredient twice.
  private mutating func canonicalCounts(upTo most: Int = StockState.maxUnits) -> [Ingredient: Int]? {
    guard literal("{") else { return nil }
    var counts: [Ingredient: Int] = [:]
    if literal("}") { return counts }
    repeat {
      guard let name = string(), let ingredient = Ingredient(rawValue: name), counts[ingredient] == nil, literal(":"),
        let units = count(upTo: most)
      else { return nil }
      counts[ingredient] = units
    } while literal(",")
    guard literal("}") else { return nil }
    return counts
  }

  /// A count from 0 to `most`, written with no sign: `-0`, which `int()`
  /// reads as 0, is no number the canonical form writes, and the parser refuses it.
  private mutating func count(upTo most: Int) -> Int? {
    guard index < bytes.endIndex, bytes[index] != UInt8(ascii: "-"), let count = int(), count <= most else {
      return nil
    }
    return count
  }

  /// `"item":I,"tab":T`.
  private mutating func canonicalItemAndTab() -> (Item.ID, Tab.ID)? {
    guard key("item"), let item = canonicalID(), nextKey("tab"), let tab = canonicalID() else { return nil }
    return (Item.ID(raw: item), Tab.ID(raw: tab))
  }

  /// An id: 1 to 1,000,000,000, as `JSONCursor.id()` reads one.
  private mutating func canonicalID() -> Int? {
    guard let value = int(), (1...1_000_000_000).contains(value) else { return nil }
    return value
  }

  /// Money: minor units, below `CanonicalMoney.limit` in magnitude; `-0` is not a number the form writes.
  private mutating func canonicalMoney() -> Decimal? {
    let start = index
    if literal("-0") {
      index = start
      return nil
    }
    guard let units = int(), units.magnitude < CanonicalMoney.limit.magnitude else { return nil }
    return CanonicalMoney.amount(minorUnits: units)
  }

  /// `null` or a string: `.some(nil)` for `null`, nil when neither comes next.
  private mutating func optionalString() -> String?? {
    if literal("null") { return .some(nil) }
    guard let text = string() else { return nil }
    return .some(text)
  }

  /// An idempotency key: 1 to 100 of `A-Z a-z 0-9 _ . : -`.
  private mutating func idempotencyKey() -> IdempotencyKey? {
    guard let text = string(), (1...100).contains(text.utf8.count),
      text.utf8.allSatisfy({ byte in
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
          UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: ":"),
          UInt8(ascii: "-"):
          true
        default: false
        }
      })
    else { return nil }
    return IdempotencyKey(text)
  }

  /// `null` or an idempotency key.
  private mutating func optionalIdempotencyKey() -> IdempotencyKey?? {
    if literal("null") { return .some(nil) }
    guard let key = idempotencyKey() else { return nil }
    return .some(key)
  }
}
