import CanonicalJSON
import KioskCommands
import Menu
import Stock
import Tabs

// The till's state, steps and outcomes in canonical form: what a `TestStore`
// compares and a recording holds. The journal holds the kiosk's records
// instead (`KioskTillFormat`).

extension KioskTill.State: CanonicalCodable {
  /// `{"initialized", "menu", "paying", "paymentsJournaled", "refunding", "stock", "tabs", "till", "undo"}`.
  public var canonical: JSONValue {
    .object([
      "initialized": .bool(initialized), "menu": slices.menu.canonical,
      "paying": .array(paying.map { .integer($0.raw) }), "paymentsJournaled": .bool(paymentsJournaled),
      "refunding": refunding.map { .integer($0.raw) } ?? .null,
      "stock": slices.stock.canonical, "tabs": slices.tabs.canonical, "till": till.map(JSONValue.string) ?? .null,
      "undo": .array(undo.map(\.canonical)),
    ])
  }

  public init(canonical cursor: JSONCursor) throws(CanonicalError) {
    _ = try cursor.object(keys: [
      "initialized", "menu", "paying", "paymentsJournaled", "refunding", "stock", "tabs", "till", "undo",
    ])
    var refunding: Tab.ID?
    if let tab = try cursor.optionalField("refunding") { refunding = Tab.ID(raw: try tab.id()) }
    var paying: [Tab.ID] = []
    for tab in try cursor.field("paying").array() { paying.append(Tab.ID(raw: try tab.id())) }
    var undo: [UndoHistory.Entry] = []
    for entry in try cursor.field("undo").array() { undo.append(try UndoHistory.Entry(canonical: entry)) }
    let till = try cursor.field("till")
    self.init(
      slices: KioskSnapshot(
        menu: try MenuState(canonical: cursor.field("menu")), stock: try StockState(canonical: cursor.field("stock")),
        tabs: try TabsState(canonical: cursor.field("tabs"))),
      undo: undo, till: till.value == .null ? nil : try till.string(),
      initialized: try cursor.field("initialized").bool(), paying: paying,
      refunding: refunding,
      paymentsJournaled: try cursor.field("paymentsJournaled").bool())
  }
}

extension KioskTill.Action: CanonicalCodable {
  /// `{"initialize": {"menu", "stock"}}`, `{"command": action}`, `{"settle": tab}`, `{"undo": {}}`,
  /// `{"nameTill": name}`, `{"record": record}`, `{"intent": intent}`, `{"charged": receipt}`,
  /// `{"refunded": {"key", "reference"}}` or `{"released": tab}`.
  public var canonical: JSONValue {
    switch self {
    case .initialize(let menu, let stock): .sum("initialize", ["menu": menu.canonical, "stock": stock.canonical])
    case .command(let command): .object(["command": command.canonical])
    case .settle(let tab): .object(["settle": .integer(tab.raw)])
    case .undo: .sum("undo")
    case .nameTill(let name): .object(["nameTill": .string(name)])
    case .record(let record): .object(["record": record.canonical])
    case .intent(let intent): .object(["intent": intent.canonical])
    case .charged(let receipt): .object(["charged": receipt.canonical])
    case .refunded(let reference, let key):
      .sum("refunded", ["key": .string(key.raw), "reference": .string(reference)])
    case .released(let tab): .object(["released": .integer(tab.raw)])
    }
  }

  public init(canonical cursor: JSONCursor) throws(CanonicalError) {
    let (name, value) = try cursor.sum(cases: [
      "initialize", "command", "settle", "undo", "nameTill", "record", "intent", "charged", "refunded", "released",
    ])
    switch name {
    case "initialize":
      _ = try value.object(keys: ["menu", "stock"])
      self = .initialize(
        menu: try MenuState(canonical: value.field("menu")), stock: try StockState(canonical: value.field("stock")))
    case "command": self = .command(try KioskAction(canonical: value))
    case "settle": self = .settle(Tab.ID(raw: try value.id()))
    case "undo":
      _ = try value.object(keys: [])
      self = .undo
    case "released": self = .released(tab: Tab.ID(raw: try value.id()))
    case "intent": self = .intent(try PaymentIntent(canonical: value))
    case "charged": self = .charged(try Receipt(canonical: value))
    case "refunded":
      _ = try value.object(keys: ["key", "reference"])
      self = .refunded(reference: try value.field("reference").string(), key: try value.field("key").idempotencyKey())
    case "nameTill": self = .nameTill(try value.string())
    default: self = .record(try KioskRecord(canonical: value))
    }
  }
}

extension KioskTill.Outcome: CanonicalEncodable {
  /// `{"journaled": record or null, "payment": payment or null, "reason": text or null,
  /// "refused": refusal or null, "released": tab or null}`.
  public var canonical: JSONValue {
    .object([
      "journaled": record.canonical, "payment": payment?.canonical ?? .null,
      "reason": reason.map(JSONValue.string) ?? .null, "refused": refusal.canonical,
      "released": released.map { .integer($0.raw) } ?? .null,
    ])
  }
}

extension KioskTill.Effect: CanonicalEncodable {
  /// Never made: `{}`.
  public var canonical: JSONValue { .object([:]) }
}
