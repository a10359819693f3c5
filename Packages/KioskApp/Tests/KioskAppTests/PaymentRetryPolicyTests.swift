import DurableStore
import KioskApp
import Testing

// The kiosk's retry policy and what the store makes of it. The store's
// retries themselves, on virtual time, are the framework's to pin
// (`RetryPolicyTests`); the till's, end to end, are `TillEffectTests`.

@Suite struct PaymentRetryPolicyTests {
  @Test func backoffDoublesFromTheFirstUpToTheMostThenAddsJitterOfTheFirst() {
    let policy = PaymentRetryPolicy.standard
    #expect(policy.backoff(after: 1, jitter: 0) == .milliseconds(500))
    #expect(policy.backoff(after: 2, jitter: 0) == .seconds(1))
    #expect(policy.backoff(after: 3, jitter: 0) == .seconds(2))
    #expect(policy.backoff(after: 4, jitter: 0) == .seconds(4))
    #expect(policy.backoff(after: 9, jitter: 0) == .seconds(4))
    #expect(policy.backoff(after: 1, jitter: 0.5) == .milliseconds(750))
  }

  @Test func backoffNeverTrapsOnNaNJitterOrNegativeOrHugeInputs() {
    let policy = PaymentRetryPolicy(
      attemptTimeout: .seconds(1), deadline: .seconds(5), firstBackoff: .seconds(-1), maxBackoff: .seconds(-1))
    #expect(policy.backoff(after: 200, jitter: .nan) == .zero)
    #expect(PaymentRetryPolicy.standard.backoff(after: .max, jitter: .infinity) < .seconds(5))
    #expect(PaymentRetryPolicy.standard.backoff(after: 1, jitter: -3) == .milliseconds(500))
  }

  @Test func jitterComesFromTheInjectedSourceInTurnThenRepeatsTheLast() {
    let jitter = Jitter.sequence([0.1, 0.7])
    #expect([jitter.next(), jitter.next(), jitter.next()] == [0.1, 0.7, 0.7])
    #expect(Jitter.none.next() == 0)
    #expect((0..<100).allSatisfy { _ in (0..<1).contains(Jitter.random.next()) })
  }

  /// The store runs the policy as written: each attempt's timeout, the whole
  /// call's deadline, the same backoff; it asks before a key's first use,
  /// gives up a charge never sent when the till stopped, and leaves a
  /// payment nobody answered open.
  @Test func theStoreRunsThePolicyWithItsTimeoutsBackoffAndDeadline() {
    let policy = PaymentRetryPolicy.within(.seconds(20))
    let store = KioskTill.effectPolicy(policy)
    #expect(store.deadline == policy.attemptTimeout && store.totalDeadline == policy.deadline)
    #expect(store.attempts == PaymentRetryPolicy.maxAttempts)
    for attempt in 1...6 {
      for draw in [0, 0.3, 0.99] {
        #expect(
          store.wait(beforeRetry: attempt, draw: draw) == policy.backoff(after: attempt, jitter: draw),
          "attempt \(attempt), jitter \(draw)")
      }
    }
    #expect(store.reconcileFirst && !store.performAfterRestart && store.leavesUnansweredOpen)
  }
}
