import CanonicalJSON
import Foundation
import Payment

/// The processor a scenario charges through, as plain data: the ledger whose
/// rules the till's `LocalProcessor` applies too (`ProcessorLedger`), and a
/// fault to act out. Its limit is not data: it is the processors' rule
/// (`ProcessorRules.chargeLimit`), so changing the rule changes the recordings.
public struct ProcessorState: Equatable, Sendable {
  /// A failure the processor acts out on every new charge and refund.
  public typealias Fault = ProcessorFault

  /// The movements so far, under the processor's rules; references are `ch_<session>_<n>`.
  public var ledger: ProcessorLedger
  /// The fault to act out, if any.
  public var fault: Fault?

  /// A processor in session `session` that has made `entries`.
  public init(session: String = "sc", entries: [ProcessorLedger.Entry] = [], fault: Fault? = nil) {
    ledger = ProcessorLedger(prefix: session, entries: entries)
    self.fault = fault
  }

  /// The session: the references' middle part.
  public var session: String { ledger.prefix }

  /// How many times money moved.
  public var movements: Int { ledger.entries.count }
}

extension ProcessorState: CanonicalCodable {
  /// `{"entries": [{"charge": {...}} or {"refund": {...}}], "fault": null, "session": "sc"}`.
  public var canonical: JSONValue {
    .object([
      "entries": .array(ledger.entries.map(\.canonical)), "fault": fault.map { .string($0.rawValue) } ?? .null,
      "session": .string(session),
    ])
  }

  public init(canonical cursor: JSONCursor) throws(CanonicalError) {
    _ = try cursor.object(keys: ["entries", "fault", "session"])
    let session = try cursor.field("session").string()
    var ledger = ProcessorLedger(prefix: session)
    for field in try cursor.field("entries").array() {
      let entry = try ProcessorLedger.Entry(canonical: field)
      // Only a ledger its own rules could have written is a processor's state.
      let decision: ProcessorLedger.Decision
      do {
        switch entry.kind {
        case .charge: decision = try ledger.decideCharge(entry.amount, key: entry.key)
        case .refund: decision = try ledger.decideRefund(entry.charge ?? "", amount: entry.amount, key: entry.key)
        }
      } catch { throw field.fail("the processor would not have made this movement: \(error)") }
      guard decision == .move(entry) else {
        throw field.fail("the processor would have made this movement otherwise: \(decision)")
      }
      ledger.record(entry)
    }
    var fault: Fault?
    if let field = try cursor.optionalField("fault") {
      let name = try field.string()
      guard let value = Fault(rawValue: name) else {
        throw field.fail(
          "unknown fault '\(name)'; expected \(Fault.allCases.map(\.rawValue).joined(separator: ", ")) or null")
      }
      fault = value
    }
    self.ledger = ledger
    self.fault = fault
  }
}

extension ProcessorLedger.Entry: CanonicalCodable {
  /// `{"charge": {"amount", "key", "reference"}}` or `{"refund": {"amount", "charge", "key", "reference"}}`.
  public var canonical: JSONValue {
    var fields: [String: JSONValue] = [
      "amount": CanonicalMoney.value(amount), "key": .string(key.raw), "reference": .string(reference),
    ]
    if kind == .refund { fields["charge"] = .string(charge ?? "") }
    return .sum(kind.rawValue, fields)
  }

  public init(canonical cursor: JSONCursor) throws(CanonicalError) {
    let (name, fields) = try cursor.sum(cases: ["charge", "refund"])
    let kind: Kind = name == "charge" ? .charge : .refund
    _ = try fields.object(
      keys: kind == .charge ? ["amount", "key", "reference"] : ["amount", "charge", "key", "reference"])
    self.init(
      kind: kind, key: try fields.field("key").idempotencyKey(), reference: try fields.field("reference").string(),
      amount: try CanonicalMoney.read(fields.field("amount")),
      charge: kind == .refund ? try fields.field("charge").string() : nil)
  }
}

extension PaymentStatus: CanonicalCodable {
  /// `{"charged": {"amount", "reference"}}` or `{"refunded": {"amount", "charge", "reference"}}`;
  /// `unknown` is `{"unknown": {}}`.
  public var canonical: JSONValue {
    switch self {
    case .unknown: .sum("unknown")
    case .charged(let reference, let amount):
      .sum("charged", ["amount": CanonicalMoney.value(amount), "reference": .string(reference)])
    case .refunded(let reference, let charge, let amount):
      .sum(
        "refunded",
        ["amount": CanonicalMoney.value(amount), "charge": .string(charge), "reference": .string(reference)])
    }
  }

  public init(canonical cursor: JSONCursor) throws(CanonicalError) {
    let (name, fields) = try cursor.sum(cases: ["charged", "refunded", "unknown"])
    switch name {
    case "unknown":
      _ = try fields.object(keys: [])
      self = .unknown
    case "charged":
      _ = try fields.object(keys: ["amount", "reference"])
      self = .charged(
        reference: try fields.field("reference").string(), amount: try CanonicalMoney.read(fields.field("amount")))
    default:
      _ = try fields.object(keys: ["amount", "charge", "reference"])
      self = .refunded(
        reference: try fields.field("reference").string(), charge: try fields.field("charge").string(),
        amount: try CanonicalMoney.read(fields.field("amount")))
    }
  }
}
