import Clock
import ClockTesting
import Foundation
import KioskApp
import Payment
import Testing
import VirtualTime
import _ServiceLinkerTestSupport

/// Makes `clock`'s settle exact for one task: woken, it has run on once it
/// sleeps again or has finished (`done`); then waits for its first sleep.
func follow(_ done: Locked<Bool>, on clock: TestClock) async {
  clock.settle = {
    for _ in 0..<100_000 {
      if !clock.sleepers.isEmpty || done.withLock({ $0 }) { return }
      await Task.yield()
    }
  }
  await clock.settle()
}

/// The retry policy and runner, on virtual time.
@Suite struct PaymentRetryTests {
  @Test func backoffDoublesFromTheFirstUpToTheMostThenAddsJitterOfTheFirst() {
    let policy = PaymentRetryPolicy.standard
    #expect(policy.backoff(after: 1, jitter: 0) == .milliseconds(500))
    #expect(policy.backoff(after: 2, jitter: 0) == .seconds(1))
    #expect(policy.backoff(after: 3, jitter: 0) == .seconds(2))
    #expect(policy.backoff(after: 4, jitter: 0) == .seconds(4))
    #expect(policy.backoff(after: 9, jitter: 0) == .seconds(4))
    #expect(policy.backoff(after: 1, jitter: 0.5) == .milliseconds(750))
  }

  @Test func aDeclineIsNotRetried() async {
    await withTestClock { clock in
      let calls = Locked(0)
      do {
        _ = try await PaymentRetry.run(policy: .standard, clock: VirtualClock(clock), jitter: .none) {
          (_: Duration) async throws(PaymentError) -> String in
          calls.withLock { $0 += 1 }
          throw .declined(reason: "no")
        }
        Issue.record("a decline returned")
      } catch {
        #expect(error as? PaymentCallFailure == .declined(reason: "no"))
      }
      #expect(calls.withLock { $0 } == 1)
    }
  }

  @Test func aTransientFailureIsRetriedUntilAnAttemptAnswers() async throws {
    try await withTestClock { clock in
      let attempts = Locked<[Duration]>([])
      let done = Locked(false)
      let task = Task(name: "retrying") {
        defer { done.withLock { $0 = true } }
        return try await PaymentRetry.run(policy: .standard, clock: VirtualClock(clock), jitter: .none) {
          (timeout: Duration) async throws(PaymentError) -> String in
          let count = attempts.withLock { attempts in
            attempts.append(clock.elapsed)
            return attempts.count
          }
          guard count == 3 else { throw .timedOut }
          return "ch_1"
        }
      }
      await follow(done, on: clock)
      await clock.advance(by: .seconds(2))
      let answer = try await task.value
      #expect(answer == "ch_1")
      // Failed at once twice: retried after 0.5 s, then after 1 s more.
      #expect(attempts.withLock { $0 } == [.zero, .milliseconds(500), .milliseconds(1_500)])
    }
  }

  @Test func eachAttemptGetsAtMostTheTimeLeftBeforeTheDeadline() async {
    await withTestClock { clock in
      let policy = PaymentRetryPolicy(
        attemptTimeout: .seconds(4), deadline: .seconds(5), firstBackoff: .milliseconds(500), maxBackoff: .seconds(1))
      let timeouts = Locked<[Duration]>([])
      let done = Locked(false)
      let task = Task(name: "tight") {
        defer { done.withLock { $0 = true } }
        return try await PaymentRetry.run(policy: policy, clock: VirtualClock(clock), jitter: .none) {
          (timeout: Duration) async throws(PaymentError) -> String in
          timeouts.withLock { $0.append(timeout) }
          try? await clock.sleep(for: timeout)
          throw .timedOut
        }
      }
      await follow(done, on: clock)
      await clock.advance(by: .seconds(5))
      do {
        _ = try await task.value
        Issue.record("a silent processor answered")
      } catch {
        #expect(error as? PaymentCallFailure == .deadlinePassed(attempts: [.zero, .milliseconds(4_500)]))
      }
      #expect(timeouts.withLock { $0 } == [.seconds(4), .milliseconds(500)])
    }
  }

  @Test func cancellingTheCallEndsItWithoutAnotherAttempt() async {
    await withTestClock { clock in
      let calls = Locked(0)
      let task = Task(name: "cancelled") {
        try await PaymentRetry.run(policy: .standard, clock: VirtualClock(clock), jitter: .none) {
          (_: Duration) async throws(PaymentError) -> String in
          calls.withLock { $0 += 1 }
          throw .timedOut
        }
      }
      for _ in 0..<100_000 {
        if !clock.sleepers.isEmpty { break }
        await Task.yield()
      }
      task.cancel()
      do {
        _ = try await task.value
        Issue.record("a cancelled call answered")
      } catch {
        #expect(error as? PaymentCallFailure == .cancelled)
      }
      #expect(calls.withLock { $0 } == 1)
    }
  }

  @Test func backoffNeverTrapsOnNaNJitterOrNegativeOrHugeInputs() {
    let policy = PaymentRetryPolicy(
      attemptTimeout: .seconds(1), deadline: .seconds(5), firstBackoff: .seconds(-1), maxBackoff: .seconds(-1))
    #expect(policy.backoff(after: 200, jitter: .nan) == .zero)
    #expect(PaymentRetryPolicy.standard.backoff(after: .max, jitter: .infinity) < .seconds(5))
    #expect(PaymentRetryPolicy.standard.backoff(after: 1, jitter: -3) == .milliseconds(500))
  }

  @Test func aPolicyWhoseWaitsAreZeroStopsAfterTheMostAttempts() async {
    await withTestClock { clock in
      let policy = PaymentRetryPolicy(
        attemptTimeout: .zero, deadline: .seconds(1), firstBackoff: .zero, maxBackoff: .zero)
      let calls = Locked(0)
      do {
        _ = try await PaymentRetry.run(policy: policy, clock: VirtualClock(clock), jitter: .none) {
          (_: Duration) async throws(PaymentError) -> String in
          calls.withLock { $0 += 1 }
          throw .timedOut
        }
        Issue.record("answered")
      } catch {
        guard case .deadlinePassed(let attempts) = error as? PaymentCallFailure else {
          Issue.record("\(error)")
          return
        }
        #expect(attempts.count == PaymentRetryPolicy.maxAttempts)
      }
      #expect(calls.withLock { $0 } == PaymentRetryPolicy.maxAttempts)
    }
  }

  @Test func aDeadlineOfZeroMakesNoAttempt() async {
    await withTestClock { clock in
      let policy = PaymentRetryPolicy(
        attemptTimeout: .seconds(1), deadline: .zero, firstBackoff: .seconds(1), maxBackoff: .seconds(1))
      do {
        _ = try await PaymentRetry.run(policy: policy, clock: VirtualClock(clock), jitter: .none) {
          (_: Duration) async throws(PaymentError) -> String in "ch_1"
        }
        Issue.record("an attempt was made")
      } catch {
        #expect(error as? PaymentCallFailure == .deadlinePassed(attempts: []))
      }
    }
  }

  @Test func jitterComesFromTheInjectedSourceInTurnThenRepeatsTheLast() {
    let jitter = Jitter.sequence([0.1, 0.7])
    #expect([jitter.next(), jitter.next(), jitter.next()] == [0.1, 0.7, 0.7])
    #expect(Jitter.none.next() == 0)
    #expect((0..<100).allSatisfy { _ in (0..<1).contains(Jitter.random.next()) })
  }
}
