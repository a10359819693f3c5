import DurableStore
import FeatureKit

/// A feature that is `Tea` but for what it names itself (its keys, its
/// format): every requirement it does not name is Tea's.
protocol TeaVariant: DurableFeature
where
  State == Tea.State, Action == Tea.Action, Effect == Tea.Effect, Outcome == Tea.Outcome,
  Request == Tea.Request, Environment == Tea.Environment
{}

extension TeaVariant {
  static func name(of action: Action) -> String { Tea.name(of: action) }
  static func step(_ state: inout State, _ action: Action) -> StepResult<Effect, Outcome> { Tea.step(&state, action) }
  static func isRefusal(_ outcome: Outcome) -> Bool { Tea.isRefusal(outcome) }
  static func requests(after action: Action, state: State, result: StepResult<Effect, Outcome>) -> [Request] {
    Tea.requests(after: action, state: state, result: result)
  }
  static func tasks(
    after action: Action, state: State, result: StepResult<Effect, Outcome>, environment: Environment
  ) -> [EffectTask<Action>] {
    Tea.tasks(after: action, state: state, result: result, environment: environment)
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
  static func inverse(of action: Action, before: State) -> Action? { Tea.inverse(of: action, before: before) }
  static var effectPolicy: EffectPolicy { Tea.effectPolicy }
}

extension Till {
  /// A store of the variant `Variant` on the till's journal, service and clock.
  func open<Variant: TeaVariant>(as variant: Variant.Type) throws -> DurableStore<Variant> {
    try DurableStore<Variant>.open(
      at: path, initial: Tea.State(), environment: Tea.Environment(cards: cards, clock: clock), clock: clock,
      options: options)
  }
}

extension Till {
  /// Makes a step of every kind on `store`: sent (an order, then its
  /// charge's outcome), fed back (a brew's timer), undone, and an outcome
  /// given up with its reason (the order of `givenUp`, whose charge hangs).
  func stepEveryKind<Variant: TeaVariant>(on store: DurableStore<Variant>?, givenUp: String) async throws {
    try store?.send(.order("green"))
    await store?.finish()
    try store?.send(.brew("chai", seconds: 60))
    await waitForOneSleeper(on: clock)
    await clock.advance(by: .seconds(60))
    await store?.finish()
    try store?.undo()
    cards.hang(true)
    try store?.send(.order(givenUp))
    await advanceWhileIntentsAreOpen(in: store)
    await store?.finish()
  }
}
