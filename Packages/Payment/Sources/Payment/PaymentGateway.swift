#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Takes money for a settled tab and gives it back.
///
/// Idempotent: every call that moves money carries an `IdempotencyKey`, and a
/// repeated key returns the first outcome without moving money again, so a
/// caller that lost an answer may ask again. `status(of:)` tells what happened
/// to a key: the question reconciliation asks after a crash. `charge` and
/// `refund` are `mutating` because a real gateway keeps session state.
public protocol PaymentGateway: ~Copyable {
  /// Charges `amount` under `key` and returns the processor's reference, or throws `PaymentError`.
  mutating func charge(_ amount: Decimal, key: IdempotencyKey) throws(PaymentError) -> String

  /// Gives back `amount` of the charge `reference` under `key`; returns the refund's reference.
  mutating func refund(_ reference: String, amount: Decimal, key: IdempotencyKey) throws(PaymentError) -> String

  /// What the processor did under `key`: charged, refunded, or nothing it knows of.
  func status(of key: IdempotencyKey) throws(PaymentError) -> PaymentStatus

  /// Asks the processor whether `amount` could be charged now, without charging it.
  /// `async`: a real processor answers over the network, outside the world, and
  /// the answer re-enters as a plain value.
  func authorize(_ amount: Decimal) async throws(PaymentError) -> Bool
}

/// Why a payment call did not go through.
public enum PaymentError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The processor refused the charge or the refund: no money moved.
  case declined(reason: String)
  /// No answer came: the money may or may not have moved. Ask `status(of:)`.
  case timedOut

  public var description: String {
    switch self {
    case .declined(let reason): "payment declined: \(reason)"
    case .timedOut: "the payment processor did not answer; the payment is unresolved until reconciled"
    }
  }
}

/// Rules both processors here apply: the local one the kiosk runs on and the
/// in-memory session gateway tests and scenarios charge through.
public enum ProcessorRules {
  /// The largest single charge a processor approves unless it is given another limit.
  public static let chargeLimit: Decimal = 1_000
}
