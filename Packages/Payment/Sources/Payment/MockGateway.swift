import Foundation

/// Approves every charge with the reference `mock_ok`; keeps no state, so its
/// link constructs it on each access and the world stores nothing.
public struct MockGateway: PaymentGateway, Sendable {
  /// Creates the mock.
  public init() {}

  /// Always `mock_ok`.
  public mutating func charge(_ amount: Decimal) throws(PaymentError) -> String { "mock_ok" }

  /// Always true.
  public func authorize(_ amount: Decimal) async throws(PaymentError) -> Bool { true }

  /// Always `mock_refund`.
  public mutating func refund(_ reference: String, amount: Decimal) throws(PaymentError) -> String { "mock_refund" }
}
