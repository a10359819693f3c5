#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Approves every charge with the reference `mock_ok`; keeps no state, so its
/// link constructs it on each access and the world stores nothing.
public struct MockGateway: PaymentGateway, Sendable {
  /// Creates the mock.
  public init() {}

  /// Always `mock_ok`.
  public mutating func charge(_ amount: Decimal, key: IdempotencyKey) throws(PaymentError) -> String { "mock_ok" }

  /// Always true.
  public func authorize(_ amount: Decimal) async throws(PaymentError) -> Bool { true }

  /// Always `mock_refund`.
  public mutating func refund(_ reference: String, amount: Decimal, key: IdempotencyKey) throws(PaymentError)
    -> String
  { "mock_refund" }

  /// Always `.unknown`: the mock remembers nothing.
  public func status(of key: IdempotencyKey) throws(PaymentError) -> PaymentStatus { .unknown }
}
