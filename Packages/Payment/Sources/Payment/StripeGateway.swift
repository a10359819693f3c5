#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The production gateway's shape, as an in-memory stand-in: it talks to no
/// network and keeps nothing after the process ends (`LocalProcessor` does).
///
/// It keeps the session state a real processor client keeps, which is why it
/// is stored in the world and reached through `_modify`, and why it is
/// `~Copyable`: two copies of one session would reuse references. Its rules
/// are `ProcessorLedger`'s, the ones the local processor and scenarios apply.
public struct StripeGateway: PaymentGateway, ~Copyable {
  /// The session: references are `ch_<session>_<n>` and `re_<session>_<n>`.
  public var sessionToken: String { ledger.prefix }
  /// Every movement of the session, with the rules.
  public private(set) var ledger: ProcessorLedger

  /// Opens a session. A real client gets its token from the processor; the
  /// kiosk passes a fresh random one per process so references never repeat.
  public init(sessionToken: String = "local", limit: Decimal = ProcessorRules.chargeLimit) {
    ledger = ProcessorLedger(prefix: sessionToken, limit: limit)
  }

  /// The number of charges and refunds made in this session.
  public var nonce: Int { ledger.entries.count }

  public mutating func charge(_ amount: Decimal, key: IdempotencyKey) throws(PaymentError) -> String {
    try ledger.charge(amount, key: key)
  }

  public func authorize(_ amount: Decimal) async throws(PaymentError) -> Bool { ledger.authorizes(amount) }

  public mutating func refund(_ reference: String, amount: Decimal, key: IdempotencyKey) throws(PaymentError)
    -> String
  { try ledger.refund(reference, amount: amount, key: key) }

  public func status(of key: IdempotencyKey) throws(PaymentError) -> PaymentStatus { ledger.status(of: key) }
}
