import Clock
import DurableStore
import Payment
import Synchronization

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// How long a processor call may take, and how it retries.
///
/// Each attempt waits at most `attemptTimeout` for an answer. An attempt that
/// gets none (`PaymentError.timedOut`: the money may or may not have moved) is
/// retried under the same idempotency key, so a retry never moves money twice.
/// Before attempt `n + 1` the call waits `min(maxBackoff, firstBackoff · 2^(n−1))`
/// plus `jitter · firstBackoff`, with the jitter in `[0, 1)` from an injected
/// source. No attempt runs past `deadline`, counted from the first: when the
/// next one could not start before it, the call has failed. A decline is final.
public struct PaymentRetryPolicy: Sendable, Equatable {
  /// How long one attempt waits for an answer.
  public var attemptTimeout: Duration
  /// How long the whole call may take, retries included.
  public var deadline: Duration
  /// The wait before the second attempt; it doubles for each one after.
  public var firstBackoff: Duration
  /// The longest wait between attempts, before jitter.
  public var maxBackoff: Duration

  /// A policy.
  public init(attemptTimeout: Duration, deadline: Duration, firstBackoff: Duration, maxBackoff: Duration) {
    self.attemptTimeout = attemptTimeout
    self.deadline = deadline
    self.firstBackoff = firstBackoff
    self.maxBackoff = maxBackoff
  }

  /// Two seconds an attempt, ten in all, backing off from half a second to four.
  public static let standard = PaymentRetryPolicy(
    attemptTimeout: .seconds(2), deadline: .seconds(10), firstBackoff: .milliseconds(500), maxBackoff: .seconds(4))

  /// One attempt of at most `timeout`, and no retry: a call that gets no
  /// answer is unresolved at once (tests of what a lost answer leaves behind).
  public static func singleAttempt(timeout: Duration = .seconds(2)) -> PaymentRetryPolicy {
    PaymentRetryPolicy(attemptTimeout: timeout, deadline: timeout, firstBackoff: timeout, maxBackoff: timeout)
  }

  /// One attempt of at most two seconds, and no retry.
  public static let singleAttempt = PaymentRetryPolicy.singleAttempt()

  /// The whole call within `deadline`: attempts of at most a fifth of it, backing off from a twentieth.
  public static func within(_ deadline: Duration) -> PaymentRetryPolicy {
    PaymentRetryPolicy(
      attemptTimeout: deadline / 5, deadline: deadline, firstBackoff: deadline / 20, maxBackoff: deadline / 2)
  }

  /// The most attempts one call makes, whatever the durations: a policy whose
  /// waits are all zero would otherwise retry forever without time moving.
  public static let maxAttempts = 100

  /// The wait after attempt `attempt` (from 1) failed, given a jitter in `[0, 1)`
  /// (anything else, NaN included, is brought into it). Negative durations count as zero.
  /// The framework's backoff (`EffectPolicy.wait(beforeRetry:draw:)`) with the whole first wait as jitter.
  public func backoff(after attempt: Int, jitter: Double) -> Duration {
    EffectPolicy(backoff: firstBackoff, maxBackoff: maxBackoff, jitter: 1).wait(beforeRetry: attempt, draw: jitter)
  }
}

/// Where retries take their jitter from: random in production, a fixed list in tests.
public struct Jitter: Sendable {
  /// The next value, in `[0, 1)`.
  public let next: @Sendable () -> Double

  /// Jitter from `next`.
  public init(next: @escaping @Sendable () -> Double) { self.next = next }

  /// Uniform in `[0, 1)`, from the system's generator.
  public static let random = Jitter { Double.random(in: 0..<1) }

  /// Always zero: backoffs are exactly the policy's.
  public static let none = Jitter { 0 }

  /// `values` in turn, then the last one again and again.
  public static func sequence(_ values: [Double]) -> Jitter {
    let remaining = Mutex(values[...])
    return Jitter {
      remaining.withLock { remaining in
        guard let first = remaining.first else { return 0 }
        if remaining.count > 1 { remaining.removeFirst() }
        return first
      }
    }
  }
}
