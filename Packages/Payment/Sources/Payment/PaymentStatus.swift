#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What a processor did under one idempotency key.
public enum PaymentStatus: Equatable, Codable, Sendable {
  /// Nothing: no money moved under the key.
  case unknown
  /// A charge of `amount`, with its reference.
  case charged(reference: String, amount: Decimal)
  /// A refund of `amount` of the charge `charge`, with the refund's reference.
  case refunded(reference: String, charge: String, amount: Decimal)
}
