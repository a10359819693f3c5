import Foundation

/// Takes money for a settled tab. `charge` is `mutating` because a real
/// gateway keeps session state (nonces, tokens): the access typing says so.
public protocol PaymentGateway: ~Copyable {
  /// Charges `amount` and returns the processor's reference, or throws `PaymentError`.
  mutating func charge(_ amount: Decimal) throws(PaymentError) -> String

  /// Gives back `amount` of the charge `reference`; returns the refund's reference.
  mutating func refund(_ reference: String, amount: Decimal) throws(PaymentError) -> String

  /// Asks the processor whether `amount` could be charged now, without charging it.
  /// `async`: a real processor answers over the network, outside the world (see
  /// `KioskShell`), and the answer re-enters as a plain value.
  func authorize(_ amount: Decimal) async throws(PaymentError) -> Bool
}

/// Why a charge did not go through.
public enum PaymentError: Error, Equatable, Sendable {
  /// The processor refused the charge or the refund.
  case declined(reason: String)
}
