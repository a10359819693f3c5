import CanonicalJSON
import Menu
import Payment
import Stock
import Tabs

// What goes into a step (the action) and what comes out besides the state
// (its outcome); the calls a scenario's processor mock records are KioskFeatures'.

extension KioskAction: CanonicalCodable {
  static let cases: Set<String> = ["add", "openTab", "remove", "restock", "settle", "undo"]

  /// The case's name, as the canonical form and a feature's list of actions name it.
  public var name: String {
    switch self {
    case .openTab: "openTab"
    case .add: "add"
    case .remove: "remove"
    case .restock: "restock"
    case .settle: "settle"
    case .undo: "undo"
    }
  }

  public var canonical: JSONValue {
    switch self {
    case .openTab(let customer): .sum(name, ["customer": .string(customer)])
    case .add(let item, let tab), .remove(let item, let tab):
      .sum(name, ["item": .integer(item.raw), "tab": .integer(tab.raw)])
    case .restock(let ingredient, let count):
      .sum(name, ["count": .integer(count), "ingredient": .string(ingredient.rawValue)])
    case .settle(let tab, let key): .sum(name, ["key": .string(key.raw), "tab": .integer(tab.raw)])
    case .undo(let key): .sum(name, ["key": .string(key.raw)])
    }
  }

  public init(canonical cursor: JSONCursor) throws(CanonicalError) {
    let (name, fields) = try cursor.sum(cases: Self.cases)
    switch name {
    case "openTab":
      _ = try fields.object(keys: ["customer"])
      self = .openTab(customer: try fields.field("customer").string())
    case "add", "remove":
      _ = try fields.object(keys: ["item", "tab"])
      let item = Item.ID(raw: try fields.field("item").id())
      let tab = Tab.ID(raw: try fields.field("tab").id())
      self = name == "add" ? .add(item: item, tab: tab) : .remove(item: item, tab: tab)
    case "restock":
      _ = try fields.object(keys: ["count", "ingredient"])
      self = .restock(
        ingredient: try Ingredient.read(fields.field("ingredient")), count: try fields.field("count").integer())
    case "settle":
      _ = try fields.object(keys: ["key", "tab"])
      self = .settle(tab: Tab.ID(raw: try fields.field("tab").id()), key: try fields.field("key").idempotencyKey())
    default:
      _ = try fields.object(keys: ["key"])
      self = .undo(key: try fields.field("key").idempotencyKey())
    }
  }
}

extension PaymentError: CanonicalEncodable {
  public var canonical: JSONValue {
    switch self {
    case .declined(let reason): .sum("declined", ["reason": .string(reason)])
    case .timedOut: .sum("timedOut")
    }
  }
}

extension CustomerName.Refusal: CanonicalEncodable {
  /// Why a name was refused: `{"controlCharacter": {"scalar": 8238}}`.
  public var canonical: JSONValue {
    switch self {
    case .empty: .sum("empty")
    case .tooLong(let characters): .sum("tooLong", ["characters": .integer(characters)])
    case .tooManyBytes(let bytes): .sum("tooManyBytes", ["bytes": .integer(bytes)])
    case .controlCharacter(let scalar): .sum("controlCharacter", ["scalar": .integer(Int(scalar))])
    case .invisible: .sum("invisible")
    }
  }
}

extension ActionRefusal: CanonicalEncodable {
  /// The domain error's case and facts: `{"unknownTab": {"tab": 9}}`.
  public var canonical: JSONValue {
    switch self {
    case .kiosk(let error):
      switch error {
      case .unknownTab(let tab): .sum("unknownTab", ["tab": .integer(tab.raw)])
      case .notOnMenu(let item): .sum("notOnMenu", ["item": .integer(item.raw)])
      case .cannotMake(let item, let short):
        .sum("cannotMake", ["item": .integer(item.raw), "short": .string(short.rawValue)])
      case .shortage(let ingredient): .sum("shortage", ["ingredient": .string(ingredient.rawValue)])
      case .tabFull(let tab): .sum("tabFull", ["tab": .integer(tab.raw)])
      case .payment(let error): .object(["payment": error.canonical])
      case .alreadySettled(let tab): .sum("alreadySettled", ["tab": .integer(tab.raw)])
      case .emptyTab(let tab): .sum("emptyTab", ["tab": .integer(tab.raw)])
      case .notOnTab(let tab): .sum("notOnTab", ["tab": .integer(tab.raw)])
      case .invalidName(let refusal): .object(["invalidName": refusal.canonical])
      }
    case .restock(let error):
      switch error {
      case .nonPositiveCount(let count): .sum("nonPositiveCount", ["count": .integer(count)])
      case .overLimit(let ingredient, let limit):
        .sum("overLimit", ["ingredient": .string(ingredient.rawValue), "limit": .integer(limit)])
      }
    }
  }
}

extension ActionOutcome: CanonicalEncodable {
  /// `{"journaled": record or null, "refused": refusal or null}`.
  public var canonical: JSONValue { .object(["journaled": record.canonical, "refused": refusal.canonical]) }
}
