import Foundation
import Payment

/// The processor a scenario charges through, as plain data: the session of
/// an in-memory `StripeGateway` (its token, its nonce and what each key did)
/// and a fault to act out. Its limit is not data: it is the processors' rule
/// (`ProcessorRules.chargeLimit`), so changing the rule changes the recordings.
public struct ProcessorState: Equatable, Sendable {
  /// A failure the processor acts out on every charge and refund.
  public enum Fault: String, Equatable, Sendable, CaseIterable {
    /// Refuses: no money moves.
    case decline
    /// Does not answer: the money may or may not have moved.
    case timeout
  }

  /// The session token: references are `ch_<session>_<nonce>` and `re_<session>_<nonce>`.
  public var session: String
  /// Charges and refunds made in the session so far.
  public var nonce: Int
  /// What each key did.
  public var outcomes: [IdempotencyKey: PaymentStatus]
  /// The fault to act out, if any.
  public var fault: Fault?

  /// A processor in session `session` that has done nothing yet.
  public init(
    session: String = "sc", nonce: Int = 0, outcomes: [IdempotencyKey: PaymentStatus] = [:], fault: Fault? = nil
  ) {
    self.session = session
    self.nonce = nonce
    self.outcomes = outcomes
    self.fault = fault
  }
}

extension ProcessorState: CanonicalCodable {
  /// `{"fault": null, "nonce": 0, "outcomes": {"<key>": status}, "session": "sc"}`.
  public var canonical: JSONValue {
    .object([
      "fault": fault.map { .string($0.rawValue) } ?? .null, "nonce": .integer(nonce),
      "outcomes": .object(Dictionary(uniqueKeysWithValues: outcomes.map { ($0.key.raw, $0.value.canonical) })),
      "session": .string(session),
    ])
  }

  public init(canonical cursor: JSONCursor) throws(CanonicalError) {
    _ = try cursor.object(keys: ["fault", "nonce", "outcomes", "session"])
    var outcomes: [IdempotencyKey: PaymentStatus] = [:]
    for (key, status) in try cursor.field("outcomes").object() {
      outcomes[try JSONCursor(.string(key), path: status.path).idempotencyKey()] = try PaymentStatus(canonical: status)
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
    self.init(
      session: try cursor.field("session").string(), nonce: try cursor.field("nonce").integer(in: 0...1_000_000_000),
      outcomes: outcomes,
      fault: fault)
  }
}

extension PaymentStatus: CanonicalCodable {
  /// `{"charged": {"amount", "reference"}}` or `{"refunded": {"amount", "charge", "reference"}}`;
  /// `unknown` is `{"unknown": {}}`.
  public var canonical: JSONValue {
    switch self {
    case .unknown: .sum("unknown")
    case .charged(let reference, let amount):
      .sum("charged", ["amount": .string(CanonicalMoney.text(amount)), "reference": .string(reference)])
    case .refunded(let reference, let charge, let amount):
      .sum(
        "refunded",
        ["amount": .string(CanonicalMoney.text(amount)), "charge": .string(charge), "reference": .string(reference)])
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
