import CanonicalJSON
import KioskCommands
import Payment
import Tabs

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What `KioskTill` asks the processor to do: the store's request, journaled
/// as the kiosk's `paymentIntent` record under the intent's key.
public struct KioskPayment: Equatable, Sendable {
  /// Which way the money moves.
  public var kind: PaymentIntent.Kind
  /// The tab it is for.
  public var tab: Tab.ID
  /// How much.
  public var amount: Decimal
  /// For a refund, the charge's reference.
  public var charge: String?
  /// The key it must go under, when it has one already: a `paymentIntent`
  /// read back, or a charge the processor holds that a settle adopts. Nil
  /// for a new payment: the store names its key (`k_<salt>_<sequence>_t<tab>`).
  public var key: IdempotencyKey?

  /// A payment.
  public init(kind: PaymentIntent.Kind, tab: Tab.ID, amount: Decimal, charge: String? = nil, key: IdempotencyKey? = nil)
  {
    self.kind = kind
    self.tab = tab
    self.amount = amount
    self.charge = charge
    self.key = key
  }

  /// The payment a journaled intent asked for, under its key.
  public init(_ intent: PaymentIntent) {
    self.init(kind: intent.kind, tab: intent.tab, amount: intent.amount, charge: intent.charge, key: intent.key)
  }

  /// The intent record of this payment under `key`.
  public func intent(key: IdempotencyKey) -> PaymentIntent {
    PaymentIntent(kind: kind, key: key, tab: tab, amount: amount, charge: charge)
  }
}

extension KioskPayment: CanonicalCodable {
  /// `{"amount", "charge", "key", "kind", "tab"}`, with null for a charge or key it has not.
  public var canonical: JSONValue {
    .object([
      "amount": CanonicalMoney.value(amount), "charge": charge.map { .string($0) } ?? .null,
      "key": key.map { .string($0.raw) } ?? .null, "kind": .string(kind.rawValue), "tab": .integer(tab.raw),
    ])
  }

  public init(canonical cursor: JSONCursor) throws(CanonicalError) {
    _ = try cursor.object(keys: ["amount", "charge", "key", "kind", "tab"])
    let kindCursor = try cursor.field("kind")
    guard let kind = PaymentIntent.Kind(rawValue: try kindCursor.string()) else {
      throw kindCursor.fail("expected \"charge\" or \"refund\"")
    }
    self.init(
      kind: kind, tab: Tab.ID(raw: try cursor.field("tab").id()),
      amount: try CanonicalMoney.read(cursor.field("amount")), charge: try cursor.optionalField("charge")?.string(),
      key: try cursor.optionalField("key")?.idempotencyKey())
  }
}
