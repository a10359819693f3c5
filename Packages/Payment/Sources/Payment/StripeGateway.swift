import Foundation

/// The production gateway's shape, as a local stand-in: it talks to no network.
///
/// It keeps the session state a real processor client keeps (a session token
/// and a nonce that advances with every charge), which is why it is stored in
/// the world and reached through `modify`, and why it is `~Copyable`: two
/// copies of one session would reuse nonces. Charges above `limit` are
/// declined, standing in for the processor saying no.
public struct StripeGateway: PaymentGateway, ~Copyable {
  /// The session this client charges under.
  public let sessionToken: String
  /// The number of charges made in this session.
  public private(set) var nonce: Int
  /// The largest single charge the stand-in approves.
  public let limit: Decimal

  /// Opens a session. A real client gets its token from the processor; the
  /// kiosk passes a fresh random one per process so references never repeat.
  public init(sessionToken: String = "local", nonce: Int = 0, limit: Decimal = 1_000) {
    self.sessionToken = sessionToken
    self.nonce = nonce
    self.limit = limit
  }

  /// Advances the nonce and returns `ch_<session>_<nonce>`; declines amounts
  /// above `limit` or below zero.
  public mutating func charge(_ amount: Decimal) throws(PaymentError) -> String {
    guard amount >= 0 else { throw .declined(reason: "negative amount") }
    guard amount <= limit else { throw .declined(reason: "over the \(limit) limit") }
    nonce += 1
    return "ch_\(sessionToken)_\(nonce)"
  }

  /// Whether `charge(amount)` would be approved: within the limit and not negative.
  public func authorize(_ amount: Decimal) async throws(PaymentError) -> Bool {
    amount >= 0 && amount <= limit
  }

  /// Advances the nonce and returns `re_<session>_<nonce>`; declines references
  /// that are not charges.
  public mutating func refund(_ reference: String, amount: Decimal) throws(PaymentError) -> String {
    guard reference.hasPrefix("ch_") else { throw .declined(reason: "'\(reference)' is not a charge") }
    nonce += 1
    return "re_\(sessionToken)_\(nonce)"
  }
}
