import DurableStore
import Journal
import Testing
import VirtualTime
import _ServiceLinkerTestSupport

/// Tea whose card service's decline is final: given up at once.
enum DecliningTea: TeaVariant {
  static func finalFailure(_ error: any Error) -> String? { error is CardDeclined ? "declined" : nil }
}

/// Tea that retries up to ten times, waits of 1 s doubling to at most 2 s
/// plus half a second of jitter at most, and starts no attempt 6 s after the first.
enum PatientTea: TeaVariant {
  static var effectPolicy: EffectPolicy {
    EffectPolicy(
      attempts: 10, deadline: .seconds(1), backoff: .seconds(1), maxBackoff: .seconds(2), jitter: 0.5,
      totalDeadline: .seconds(6))
  }
}

/// Tea that asks its card service about every charge before making it.
enum CarefulTea: TeaVariant {
  static var effectPolicy: EffectPolicy {
    var policy = Tea.effectPolicy
    policy.reconcileFirst = true
    return policy
  }
}

@MainActor @Suite struct RetryPolicyTests {
  @Test func waitsDoubleUpToTheCapWithJitterAddedAfter() {
    let policy = EffectPolicy(backoff: .seconds(1), maxBackoff: .seconds(4), jitter: 0.5)
    #expect(policy.wait(beforeRetry: 1, draw: 0) == .seconds(1))
    #expect(policy.wait(beforeRetry: 2, draw: 0.5) == .milliseconds(2_250))
    #expect(policy.wait(beforeRetry: 3, draw: 0) == .seconds(4))
    #expect(policy.wait(beforeRetry: 4, draw: 0) == .seconds(4), "the cap holds")
    #expect(policy.wait(beforeRetry: 1_000, draw: .nan) == .seconds(4), "NaN draws no jitter")
    #expect(policy.wait(beforeRetry: 1, draw: 7) < .milliseconds(1_500), "a draw is brought under 1")
    let uncapped = EffectPolicy(backoff: .seconds(1))
    #expect(uncapped.wait(beforeRetry: 4, draw: 0.9) == .seconds(8), "no jitter unless the policy asks")
    #expect(uncapped.wait(beforeRetry: 10_000, draw: 0) > .seconds(1 << 39), "many retries do not overflow")
    #expect(EffectPolicy(backoff: .seconds(-1)).wait(beforeRetry: 3, draw: 0) == .zero)
    #expect(EffectPolicy(jitter: .nan).jitter == 0 && EffectPolicy(jitter: 3).jitter == 1)
  }

  @Test func aDeclineTheFeatureCallsFinalIsGivenUpAtOnceWithoutAskingOrRetrying() async throws {
    let till = try Till()
    till.cards.failNext(1)
    var store: DurableStore<DecliningTea>? = try till.open(as: DecliningTea.self)
    try store?.send(.order("lapsang"))
    // Were the decline not final, the retries would wait on the test clock: move it.
    await till.advanceWhileIntentsAreOpen(in: store)
    await store?.finish()
    #expect(till.cards.attempts == 1)
    #expect(till.cards.questions == 0, "a service that said no is not asked what became of it")
    #expect(store?.state.refunded == ["lapsang"])
    #expect(store?.openIntents.isEmpty == true)
    store = nil
    let reopened = try till.open(as: DecliningTea.self)
    await reopened.finish()
    #expect(till.cards.attempts == 1, "the intent closed as abandoned: opening again does not charge")
  }

  @Test func aDeclineAfterAnAttemptThatMayStillGoThroughIsAskedAboutBeforeItIsGivenUp() async throws {
    let till = try Till()
    till.cards.late(true)
    let store = try till.open(as: DecliningTea.self)
    try store.send(.order("matcha"))
    await waitForAttempts(1, at: till.cards)
    till.cards.failNext(1)
    // The first attempt outlives its 5 s deadline, deaf; after the 1 s wait the
    // service says it has no charge, and the second attempt is declined.
    await waitForOneSleeper(on: till.clock)
    await till.clock.advance(by: .seconds(5))
    let backoff = try #require(await nextWait(of: store, on: till.clock))
    await till.clock.advance(to: backoff.deadline)
    await waitForAttempts(2, at: till.cards)
    let lastQuestion = try #require(await nextWait(of: store, on: till.clock))
    // Meanwhile the first attempt goes through.
    till.cards.late(false)
    await waitForCharges(1, at: till.cards)
    await till.clock.advance(to: lastQuestion.deadline)
    await store.finish()
    #expect(store.state.charged == ["matcha"], "the decline did not hide the charge that went through")
    #expect(store.state.refunded.isEmpty)
    #expect(till.cards.charges == ["matcha"])
  }

  @Test(arguments: [false, true])
  func aServiceThatSawTheKeyBeforeIsAskedFirstOnlyWhenThePolicySays(reconcileFirst: Bool) async throws {
    let till = try Till()
    // The journal made first, for its salt (and closed again).
    let salt = try DurableJournal(path: till.path).salt
    // The service took a charge under the key the first order will get, as
    // after a journal restored from an older copy.
    try await till.cards.charge("assam", key: IntentKey(salt: salt, sequence: 1, index: 0))
    if reconcileFirst {
      let store = try till.open(as: CarefulTea.self)
      try store.send(.order("assam"))
      await store.finish()
      #expect(store.state.charged == ["assam"])
    } else {
      let store = try till.open(as: Tea.self)
      try store.send(.order("assam"))
      await store.finish()
    }
    #expect(till.cards.charges == (reconcileFirst ? ["assam"] : ["assam", "assam"]))
    #expect(till.cards.questions == (reconcileFirst ? 1 : 0))
  }

  @Test func retriesWaitTheCappedDoublingPlusJitterAndStopAtTheTotalDeadline() async throws {
    let till = try Till()
    till.cards.failNext(100)
    till.options.jitter = { 0.5 }
    let store = try till.open(as: PatientTea.self)
    try store.send(.order("keemun"))
    await waitForAttempts(1, at: till.cards)
    // Waits of 1 s, 2 s and 2 s, each with a quarter second of jitter: attempts
    // at 0, 1.25 s, 3.5 s and 5.75 s; the next would start at 8 s, past 6 s.
    // The clock moves to each wait's end as the intent's task starts it.
    var starts: [Duration] = [.zero]
    while let wait = await nextWait(of: store, on: till.clock) {
      await till.clock.advance(to: wait.deadline)
      await waitForAttempts(starts.count + 1, at: till.cards, orClosed: store)
      if till.cards.attempts > starts.count { starts.append(till.clock.elapsed) }
    }
    #expect(starts == [.zero, .milliseconds(1_250), .milliseconds(3_500), .milliseconds(5_750)])
    #expect(till.clock.elapsed == .seconds(6), "the last question is asked at the total deadline, not after it")
    #expect(store.state.refunded == ["keemun"], "given up, and its abandonment fed back")
    #expect(till.cards.charges.isEmpty)
  }
}

/// Waits until the card service has been asked for `count` charges.
func waitForAttempts(_ count: Int, at cards: CardService) async {
  await waitUntil("\(count) attempt(s)") { cards.attempts == count }
}

/// Waits until the card service has taken `count` charges.
func waitForCharges(_ count: Int, at cards: CardService) async {
  await waitUntil("\(count) charge(s)") { cards.charges.count == count }
}

/// Waits until the card service has been asked for `count` charges, or
/// `store` has no intent open (its last wait ended in giving up).
@MainActor func waitForAttempts<Model: DurableFeature>(
  _ count: Int, at cards: CardService, orClosed store: DurableStore<Model>
) async {
  for _ in 0..<100_000 where cards.attempts < count && !store.openIntents.isEmpty { await Task.yield() }
}

/// The wait the intent's task of `store` sleeps in on `clock`, once it
/// sleeps; nil when no intent is open.
@MainActor func nextWait<Model: DurableFeature>(
  of store: DurableStore<Model>, on clock: TestClock
) async -> TestClock.Sleeper? {
  for _ in 0..<100_000 {
    if store.openIntents.isEmpty { return nil }
    if let wait = clock.sleepers.first(where: { $0.label.hasPrefix("intent ") }) { return wait }
    await Task.yield()
  }
  return nil
}
