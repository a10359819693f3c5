import DurableStore
import FeatureKit
import Journal
import Testing

/// Tea whose intents carry keys of its own form, `k_<salt>_<sequence>_<tea>`,
/// as a feature needs whose service already knows keys of another form.
enum NamedTea: DurableFeature {
  typealias State = Tea.State
  typealias Action = Tea.Action
  typealias Effect = Tea.Effect
  typealias Outcome = Tea.Outcome
  typealias Request = Tea.Request
  typealias Environment = Tea.Environment

  static func key(for request: Request, salt: UInt64, sequence: UInt64, index: Int) -> IntentKey {
    IntentKey(text: "k_\(String(salt, radix: 16))_\(sequence)_\(request.charge)")
  }

  static func name(of action: Action) -> String { Tea.name(of: action) }
  static func step(_ state: inout State, _ action: Action) -> StepResult<Effect, Outcome> { Tea.step(&state, action) }
  static func isRefusal(_ outcome: Outcome) -> Bool { Tea.isRefusal(outcome) }
  static func requests(after action: Action, state: State, result: StepResult<Effect, Outcome>) -> [Request] {
    Tea.requests(after: action, state: state, result: result)
  }
  static func perform(_ request: Request, key: IntentKey, environment: Environment) async throws -> Action? {
    try await Tea.perform(request, key: key, environment: environment)
  }
  static func reconcile(_ request: Request, key: IntentKey, environment: Environment) async throws
    -> Reconciliation<Action>
  {
    try await Tea.reconcile(request, key: key, environment: environment)
  }
  static func abandoned(_ request: Request, reason: String) -> Action? { Tea.abandoned(request, reason: reason) }
  static var effectPolicy: EffectPolicy { Tea.effectPolicy }
}

@MainActor @Suite struct IntentKeyTests {
  private func open(_ till: Till) throws -> DurableStore<NamedTea> {
    try DurableStore<NamedTea>.open(
      at: till.path, initial: Tea.State(), environment: Tea.Environment(cards: till.cards, clock: till.clock),
      clock: till.clock, options: till.options)
  }

  @Test func anIntentCarriesTheKeyTheFeatureNamesToItsServiceAndAfterACrash() async throws {
    let till = try Till()
    till.stop { if case .afterPerform = $0 { true } else { false } }
    var store: DurableStore<NamedTea>? = try open(till)
    try store?.send(.order("sencha"))
    let key = try #require(store?.openIntents.first?.key)
    let salt = try DurableJournal.read(path: till.path).salt
    #expect(key.text == "k_\(String(salt, radix: 16))_1_sencha")
    await store?.finish()
    store = nil
    #expect(till.cards.wasCharged(key), "the service was asked under the feature's key")

    // Opening again replays the record (its key computed again and found the
    // same) and asks the service under that key: charged once.
    till.options.crashSeam = nil
    let reopened = try open(till)
    await reopened.finish()
    #expect(till.cards.charges == ["sencha"])
    #expect(reopened.state.charged == ["sencha"])
    #expect(reopened.openIntents.isEmpty)
  }

  @Test func aJournalWhoseKeysTheFeatureNamesOtherwiseNowIsRefusedWithTheRecord() async throws {
    let till = try Till()
    till.cards.hang(true)
    var store: DurableStore<Tea>? = try till.open()
    try store?.send(.order("genmaicha"))
    await store?.cancelAll()
    store = nil
    // The same journal read by a feature whose keys differ: replay names the record.
    #expect {
      _ = try open(till)
    } throws: { error in
      guard case DurableStoreError.replay(let sequence, let reason) = error else { return false }
      return sequence == 1 && reason.contains("k_")
    }
  }
}
