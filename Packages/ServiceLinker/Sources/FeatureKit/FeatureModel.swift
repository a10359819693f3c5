import CanonicalJSON

/// A family of features that share one state, one action vocabulary, the
/// effects a step can make and the outcome it reports, and one step function:
/// what a scenario runs and the replay server answers with.
///
/// A step is pure but for the services it links, whose calls are its
/// `effects`. Work that must wait (a timer, a network call) is not done in the
/// step: the step decides, and `tasks(after:state:result:environment:)` names
/// the asynchronous work to start, each piece feeding at most one action back
/// into the step. A `Store` runs both; a `TestStore` asserts both.
public protocol FeatureModel: Sendable {
  /// Everything a step reads and writes, as plain data.
  associatedtype State: CanonicalCodable & Equatable & Sendable
  /// What a step is asked to do.
  associatedtype Action: CanonicalCodable & Equatable & Sendable
  /// One call a step made on a service, as the service's recording mock logged it.
  associatedtype Effect: CanonicalEncodable
  /// What became of the action besides the state (a result, a refusal).
  associatedtype Outcome: CanonicalEncodable & Equatable & Sendable
  /// What asynchronous work runs on: a clock, a client. `Void` for a feature with none.
  associatedtype Environment: Sendable = Void

  /// The action's case name, which a feature's list of actions names.
  static func name(of action: Action) -> String

  /// Runs `action` on `state` and reports what it did. Pure but for the
  /// services the step links, whose calls are its effects.
  static func step(_ state: inout State, _ action: Action) -> StepResult<Effect, Outcome>

  /// The asynchronous work `action` starts, given the state after its step and
  /// what the step did; none by default. Each task runs off the store and may
  /// feed one action back, which is stepped as if sent.
  static func tasks(
    after action: Action, state: State, result: StepResult<Effect, Outcome>, environment: Environment
  ) -> [EffectTask<Action>]
}

extension FeatureModel {
  /// No asynchronous work: every step is complete when it returns.
  public static func tasks(
    after action: Action, state: State, result: StepResult<Effect, Outcome>, environment: Environment
  ) -> [EffectTask<Action>] { [] }
}

/// What one step did besides changing the state.
public struct StepResult<Effect, Outcome> {
  /// The calls the step made on its services, in order.
  public var effects: [Effect]
  /// What became of the action.
  public var outcome: Outcome

  /// Creates a result.
  public init(effects: [Effect], outcome: Outcome) {
    self.effects = effects
    self.outcome = outcome
  }
}

extension StepResult: Sendable where Effect: Sendable, Outcome: Sendable {}

/// One feature: a name, the model it runs on and the actions it takes.
/// Scenarios are written against a feature, and the replay registry holds one
/// typed entry per feature.
public struct Feature<Model: FeatureModel>: Sendable {
  /// The name recordings and requests use (`settle`).
  public let name: String
  /// The names of the actions this feature takes.
  public let actions: [String]

  /// Creates a feature taking `actions`.
  public init(name: String, actions: [String]) {
    self.name = name
    self.actions = actions
  }

  /// Runs one step, refusing an action this feature does not take. Returns
  /// what the step did and the new state's canonical form, read back once
  /// (answers and recordings use it as it is). The work the step would start
  /// is not started: a replay answers for the step alone.
  public func step(_ state: inout Model.State, _ action: Model.Action) throws(CanonicalError)
    -> (result: StepResult<Model.Effect, Model.Outcome>, canonicalState: JSONValue)
  {
    try check(action)
    let result = Model.step(&state, action)
    return (result, try canonicalForm(of: state))
  }

  /// Refuses an action this feature does not take.
  public func check(_ action: Model.Action) throws(CanonicalError) {
    let name = Model.name(of: action)
    guard actions.contains(name) else {
      throw CanonicalError(
        path: "action",
        reason: "feature '\(self.name)' takes \(actions.joined(separator: ", ")); not '\(name)'")
    }
  }

  /// The canonical form of a state a step left, refused unless it reads back
  /// as the same state: every answer must be a request's valid state again (a
  /// request whose parts disagree could step them out of bounds).
  public func canonicalForm(of state: Model.State) throws(CanonicalError) -> JSONValue {
    let canonical = state.canonical
    let reread: Model.State
    do { reread = try Model.State(canonical: JSONCursor(canonical, path: "state")) } catch {
      throw CanonicalError(
        path: "state", reason: "the request's state does not hold together: after this step, \(error.description)")
    }
    guard reread == state else {
      throw CanonicalError(path: "state", reason: "the state after this step does not survive its canonical form")
    }
    return canonical
  }

  /// The members of a step's canonical answer, `{"effects": [...], "outcome": ..., "state": ...}`;
  /// a recording's step holds them too.
  public static func answer(canonicalState: JSONValue, result: StepResult<Model.Effect, Model.Outcome>)
    -> [String: JSONValue]
  {
    ["effects": .array(result.effects.map(\.canonical)), "outcome": result.outcome.canonical, "state": canonicalState]
  }
}
