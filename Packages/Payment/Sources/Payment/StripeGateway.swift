import Foundation

/// The production gateway's shape, as an in-memory stand-in: it talks to no
/// network and keeps nothing after the process ends (`LocalProcessor` does).
///
/// It keeps the session state a real processor client keeps (a session token
/// and a nonce that advances with every charge), which is why it is stored in
/// the world and reached through `_modify`, and why it is `~Copyable`: two
/// copies of one session would reuse nonces. It remembers every key it saw, so
/// a repeated key returns the first outcome. Charges above `limit` are declined.
public struct StripeGateway: PaymentGateway, ~Copyable {
  /// The session this client charges under.
  public let sessionToken: String
  /// The number of charges and refunds made in this session.
  public private(set) var nonce: Int
  /// The largest single charge the stand-in approves.
  public let limit: Decimal
  /// What each key did.
  private var outcomes: [IdempotencyKey: PaymentStatus] = [:]

  /// Opens a session. A real client gets its token from the processor; the
  /// kiosk passes a fresh random one per process so references never repeat.
  public init(
    sessionToken: String = "local", nonce: Int = 0, limit: Decimal = ProcessorRules.chargeLimit,
    outcomes: [IdempotencyKey: PaymentStatus] = [:]
  ) {
    self.sessionToken = sessionToken
    self.nonce = nonce
    self.limit = limit
    self.outcomes = outcomes
  }

  /// What each key did in this session: with the token and the nonce, the
  /// whole session, so a copy of it can be carried as plain data (scenarios do).
  public var outcomesByKey: [IdempotencyKey: PaymentStatus] { outcomes }

  /// Advances the nonce and returns `ch_<session>_<nonce>`; declines amounts
  /// above `limit` or below zero. A repeated key returns its first charge.
  public mutating func charge(_ amount: Decimal, key: IdempotencyKey) throws(PaymentError) -> String {
    if case .charged(let reference, _)? = outcomes[key] { return reference }
    guard outcomes[key] == nil else { throw .declined(reason: "key '\(key)' was used for a refund") }
    guard amount >= 0 else { throw .declined(reason: "negative amount") }
    guard amount <= limit else { throw .declined(reason: "over the \(limit) limit") }
    nonce += 1
    let reference = "ch_\(sessionToken)_\(nonce)"
    outcomes[key] = .charged(reference: reference, amount: amount)
    return reference
  }

  /// Whether `charge(amount)` would be approved: within the limit and not negative.
  public func authorize(_ amount: Decimal) async throws(PaymentError) -> Bool {
    amount >= 0 && amount <= limit
  }

  /// Advances the nonce and returns `re_<session>_<nonce>`; declines references
  /// that are not charges. A repeated key returns its first refund.
  public mutating func refund(_ reference: String, amount: Decimal, key: IdempotencyKey) throws(PaymentError)
    -> String
  {
    if case .refunded(let refund, _, _)? = outcomes[key] { return refund }
    guard outcomes[key] == nil else { throw .declined(reason: "key '\(key)' was used for a charge") }
    guard reference.hasPrefix("ch_") else { throw .declined(reason: "'\(reference)' is not a charge") }
    nonce += 1
    let refund = "re_\(sessionToken)_\(nonce)"
    outcomes[key] = .refunded(reference: refund, charge: reference, amount: amount)
    return refund
  }

  /// What `key` did in this session.
  public func status(of key: IdempotencyKey) throws(PaymentError) -> PaymentStatus { outcomes[key] ?? .unknown }
}
