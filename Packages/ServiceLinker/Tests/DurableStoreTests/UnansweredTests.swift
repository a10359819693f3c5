import DurableStore
import FeatureKit
import Synchronization
import Testing

/// Tea whose service may be unreachable for questions too: asked what became
/// of a charge, it hangs while the card service is unreachable.
enum UnreachableTea: TeaVariant {
  static func reconcile(_ request: Request, key: IntentKey, environment: Environment) async throws
    -> Reconciliation<Action>
  {
    if environment.cards.isUnreachable { try await Task.sleep(for: .seconds(3600)) }
    return try await Tea.reconcile(request, key: key, environment: environment)
  }
}

/// A request whose service answers nothing: given up by default, left open
/// under a policy that `leavesUnansweredOpen`, and asked about again on the next open.
@MainActor @Suite struct UnansweredTests {
  static let policy = EffectPolicy(attempts: 2, deadline: .seconds(1), backoff: .seconds(1))

  /// Orders a tea on an unreachable service and waits for its intent to end.
  func orderUnanswered(_ till: Till, leavingOpen: Bool, failing: Bool = false) async throws -> (
    DurableStore<UnreachableTea>, IntentClosed<UnreachableTea>?
  ) {
    var policy = Self.policy
    policy.leavesUnansweredOpen = leavingOpen
    till.options.effectPolicy = policy
    let store = try till.open(as: UnreachableTea.self)
    if failing { till.cards.failNext(10) } else { till.cards.unreachable(true) }
    try store.send(.order("sencha"))
    let key = try #require(store.openIntents.first?.key)
    let ended = Mutex<IntentClosed<UnreachableTea>??>(nil)
    let waiting = Task { @MainActor in
      let closed = await store.outcome(of: key)
      ended.withLock { $0 = .some(closed) }
    }
    var steps = 0
    while ended.withLock({ $0 == nil }) && steps < 120 {
      await till.clock.advance(by: .milliseconds(500))
      await Task.yield()
      steps += 1
    }
    await waiting.value
    return (store, ended.withLock { $0 } ?? nil)
  }

  @Test func anUnansweredRequestIsLeftOpenAndTheNextOpenAsksAgain() async throws {
    let till = try Till()
    var (store, closed): (DurableStore<UnreachableTea>?, IntentClosed<UnreachableTea>?) = try await orderUnanswered(
      till, leavingOpen: true)
    let unanswered = try #require(closed?.unanswered)
    #expect(unanswered.attempts == 1)
    #expect(
      unanswered.reason.hasPrefix("no answer after 1 attempt(s)"),
      "the second was not made: the question before it got no answer: \(unanswered)")
    #expect(closed?.abandoned == nil)
    #expect(store?.openIntents.count == 1, "the intent stays open")
    #expect(store?.state.refunded == [], "nothing was given up")
    store = nil

    till.cards.unreachable(false)
    let reopened = try till.open(as: UnreachableTea.self)
    await reopened.finish()
    #expect(reopened.openIntents.isEmpty)
    #expect(reopened.state.charged == ["sencha"])
    #expect(till.cards.charges == ["sencha"], "charged once")
  }

  @Test func aRequestWhoseAttemptsFailedStaysOpenThoughItsServiceHasNoRecordOfItYet() async throws {
    let till = try Till()
    let (store, closed) = try await orderUnanswered(till, leavingOpen: true, failing: true)
    let unanswered = try #require(closed?.unanswered)
    #expect(unanswered.attempts == 2)
    #expect(unanswered.reason.hasSuffix("its service has no record of it yet"), "\(unanswered.reason)")
    #expect(store.openIntents.count == 1 && store.state.refunded.isEmpty)
    #expect(till.cards.questions >= 2, "asked after each failed attempt")
  }

  @Test func anIntentLeftOpenIsAskedAboutAgainWhenTheAppSaysSo() async throws {
    let till = try Till()
    let (store, _) = try await orderUnanswered(till, leavingOpen: true)
    till.cards.unreachable(false)
    let keys = store.reconcileOpenIntents()
    #expect(keys.count == 1)
    #expect(store.reconcileOpenIntents().isEmpty, "one request at a time for an intent")
    await store.finish()
    #expect(store.openIntents.isEmpty)
    #expect(store.state.charged == ["sencha"])
    #expect(till.cards.charges == ["sencha"])
  }

  @Test func anUnansweredRequestIsGivenUpByDefault() async throws {
    let till = try Till()
    let (store, closed) = try await orderUnanswered(till, leavingOpen: false)
    #expect(closed?.unanswered == nil)
    #expect(closed?.abandoned?.hasPrefix("given up after 1 attempt(s)") == true, "\(closed?.abandoned ?? "nil")")
    #expect(store.openIntents.isEmpty)
    #expect(store.state.refunded == ["sencha"])
  }
}
