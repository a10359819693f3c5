import CanonicalJSON
import FeatureKit
import Testing

/// One line of a scenario, as the builder collects it.
public struct ScenarioNode<Model: FeatureModel>: Sendable {
  enum Kind: Sendable {
    case given(Model.State)
    case when(String, Model.Action)
    case advance(String, Duration)
    case then(String, @Sendable (Model.State) -> Bool)
    case thenEffects(String, @Sendable ([Model.Effect]) -> Bool)
    case thenOutcome(String, @Sendable (Model.Outcome) -> Bool)
    case branch(String, [ScenarioNode])
  }

  let kind: Kind
  let location: SourceLocation
}

/// The state a scenario starts from: literal values, as the seed's tests give them.
public struct Given<Model: FeatureModel> {
  let node: ScenarioNode<Model>

  /// Starts from `state`.
  public init(_ state: Model.State, sourceLocation: SourceLocation = #_sourceLocation) {
    node = ScenarioNode(kind: .given(state), location: sourceLocation)
  }
}

/// One step: `action` sent to the feature, named by `label`.
public struct When<Model: FeatureModel> {
  let node: ScenarioNode<Model>

  /// Sends `action`.
  public init(_ label: String, _ action: Model.Action, sourceLocation: SourceLocation = #_sourceLocation) {
    node = ScenarioNode(kind: .when(label, action), location: sourceLocation)
  }
}

/// Moves the leaf's virtual clock on: the work steps started runs to its next
/// wait or its end, and every action it feeds back is stepped and recorded.
/// The checks after it see the state after the last, the effects of all and
/// the outcome of the last.
public struct Advance<Model: FeatureModel> {
  let node: ScenarioNode<Model>

  /// Moves the clock on by `duration`.
  public init(_ label: String, by duration: Duration, sourceLocation: SourceLocation = #_sourceLocation) {
    node = ScenarioNode(kind: .advance(label, duration), location: sourceLocation)
  }
}

/// A check of the state after the step before it.
public struct Then<Model: FeatureModel> {
  let node: ScenarioNode<Model>

  /// Holds when `check` returns true for the state.
  public init(
    _ label: String, sourceLocation: SourceLocation = #_sourceLocation,
    _ check: @escaping @Sendable (Model.State) -> Bool
  ) {
    node = ScenarioNode(kind: .then(label, check), location: sourceLocation)
  }
}

/// A check of the effects of the step before it: the calls it made on its
/// services, in order, as their recording mocks logged them.
public struct ThenEffects<Model: FeatureModel> {
  let node: ScenarioNode<Model>

  /// Holds when `check` returns true for the effects.
  public init(
    _ label: String, sourceLocation: SourceLocation = #_sourceLocation,
    _ check: @escaping @Sendable ([Model.Effect]) -> Bool
  ) {
    node = ScenarioNode(kind: .thenEffects(label, check), location: sourceLocation)
  }
}

/// A check of what became of the action of the step before it.
public struct ThenOutcome<Model: FeatureModel> {
  let node: ScenarioNode<Model>

  /// Holds when `check` returns true for the outcome.
  public init(
    _ label: String, sourceLocation: SourceLocation = #_sourceLocation,
    _ check: @escaping @Sendable (Model.Outcome) -> Bool
  ) {
    node = ScenarioNode(kind: .thenOutcome(label, check), location: sourceLocation)
  }
}

/// One way on from the steps before it. Each path from the `Given` through
/// branches to a branch with none is a leaf: one test case and one recording.
public struct Branch<Model: FeatureModel> {
  let node: ScenarioNode<Model>

  /// A branch named `label`, running `body` after the steps before it.
  public init(
    _ label: String, sourceLocation: SourceLocation = #_sourceLocation,
    @ScenarioBuilder<Model> _ body: () -> [ScenarioNode<Model>]
  ) {
    node = ScenarioNode(kind: .branch(label, body()), location: sourceLocation)
  }
}

/// Collects a scenario's lines.
@resultBuilder
public enum ScenarioBuilder<Model: FeatureModel> {
  /// A `Given` line.
  public static func buildExpression(_ given: Given<Model>) -> [ScenarioNode<Model>] { [given.node] }
  /// A `When` line.
  public static func buildExpression(_ when: When<Model>) -> [ScenarioNode<Model>] { [when.node] }
  /// An `Advance` line.
  public static func buildExpression(_ advance: Advance<Model>) -> [ScenarioNode<Model>] { [advance.node] }
  /// A `Then` line.
  public static func buildExpression(_ then: Then<Model>) -> [ScenarioNode<Model>] { [then.node] }
  /// A `ThenEffects` line.
  public static func buildExpression(_ then: ThenEffects<Model>) -> [ScenarioNode<Model>] { [then.node] }
  /// A `ThenOutcome` line.
  public static func buildExpression(_ then: ThenOutcome<Model>) -> [ScenarioNode<Model>] { [then.node] }
  /// A `Branch`.
  public static func buildExpression(_ branch: Branch<Model>) -> [ScenarioNode<Model>] { [branch.node] }
  /// The lines in order.
  public static func buildBlock(_ parts: [ScenarioNode<Model>]...) -> [ScenarioNode<Model>] { parts.flatMap { $0 } }
}
