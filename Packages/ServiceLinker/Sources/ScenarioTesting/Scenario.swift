import CanonicalJSON
import FeatureKit
import Testing
import VirtualTime

/// A feature's behaviour as a tree: one `Given`, the steps every leaf shares,
/// then branches. Its leaves are the test cases and the recordings.
///
/// ```swift
/// Scenario(Counter.feature, "a counter at one", description: "…") {
///   Given(CounterState(count: 1))
///   When("it is incremented", .increment)
///   Then("it counts two") { $0.count == 2 }
///   ThenEffects("nothing is logged") { $0.isEmpty }
///   Branch("then reset") { … }
/// }
/// ```
public struct Scenario<Model: FeatureModel>: Sendable {
  /// The feature it pins.
  public let feature: Feature<Model>
  /// Its name: the first part of every leaf's label.
  public let name: String
  /// What it pins, in a sentence or two; kept in each recording.
  public let description: String
  /// Where it is declared.
  public let location: SourceLocation
  let nodes: [ScenarioNode<Model>]
  /// The environment each leaf's work runs on, made from the leaf's own virtual clock.
  let environment: @Sendable (TestClock) -> Model.Environment

  /// A scenario of `feature` called `name`, whose work runs on `environment`,
  /// made for each leaf from a fresh `TestClock` that `Advance` moves.
  public init(
    _ feature: Feature<Model>, _ name: String, description: String,
    environment: @escaping @Sendable (TestClock) -> Model.Environment,
    sourceLocation: SourceLocation = #_sourceLocation, @ScenarioBuilder<Model> _ body: () -> [ScenarioNode<Model>]
  ) {
    self.feature = feature
    self.name = name
    self.description = description
    self.location = sourceLocation
    self.environment = environment
    self.nodes = body()
  }

  /// Every path from the `Given` to a branch with no branch inside, in source order.
  public var leaves: [ScenarioLeaf<Model>] {
    var problems: [ScenarioProblem] = []
    var given: Model.State?
    for node in nodes {
      guard case .given(let state) = node.kind else { continue }
      if given == nil { given = state } else { problems.append(.init("a scenario has one Given", node.location)) }
    }
    if given == nil { problems.append(.init("the scenario has no Given", location)) }
    guard let given else {
      return [ScenarioLeaf(scenario: self, labels: [], given: nil, steps: [], problems: problems)]
    }
    return expand(nodes, labels: [], steps: [], problems: problems).map { labels, steps, problems in
      ScenarioLeaf(scenario: self, labels: labels, given: given, steps: steps, problems: problems)
    }
  }

  private func expand(
    _ nodes: [ScenarioNode<Model>], labels: [String], steps: [ScenarioStep<Model>], problems: [ScenarioProblem]
  ) -> [([String], [ScenarioStep<Model>], [ScenarioProblem])] {
    var steps = steps
    var problems = problems
    var branches: [(String, [ScenarioNode<Model>])] = []
    for node in nodes {
      if case .branch(let label, let body) = node.kind {
        branches.append((label, body))
        continue
      }
      if !branches.isEmpty {
        problems.append(.init("only branches may follow a Branch; put this step inside one", node.location))
        continue
      }
      switch node.kind {
      case .given:
        if !labels.isEmpty {
          problems.append(
            .init("a Given goes first, outside any Branch: a branch starts where its parent is", node.location))
        }
      case .when(let label, let action):
        steps.append(ScenarioStep(label: label, kind: .send(action), location: node.location, checks: []))
      case .advance(let label, let duration):
        steps.append(ScenarioStep(label: label, kind: .advance(duration), location: node.location, checks: []))
      case .then, .thenEffects, .thenOutcome:
        guard !steps.isEmpty else {
          problems.append(.init("a Then checks the step before it: put a When or an Advance first", node.location))
          continue
        }
        steps[steps.count - 1].checks.append(node)
      case .branch: continue
      }
    }
    if steps.isEmpty, branches.isEmpty {
      problems.append(.init("a leaf needs at least one When", nodes.last?.location ?? location))
    }
    guard !branches.isEmpty else {
      if let empty = ([name] + labels).first(where: { ScenarioLeaf<Model>.slug($0).isEmpty }) {
        problems.append(.init("'\(empty)' gives no fixture name: use ASCII letters or digits in it", location))
      }
      return [(labels, steps, problems)]
    }
    return branches.flatMap { label, body in expand(body, labels: labels + [label], steps: steps, problems: problems) }
  }
}

extension Scenario where Model.Environment == Void {
  /// A scenario of `feature` called `name`, for a feature whose work needs no environment.
  public init(
    _ feature: Feature<Model>, _ name: String, description: String,
    sourceLocation: SourceLocation = #_sourceLocation, @ScenarioBuilder<Model> _ body: () -> [ScenarioNode<Model>]
  ) {
    self.init(
      feature, name, description: description, environment: { _ in () }, sourceLocation: sourceLocation, body)
  }
}

/// A scenario written wrongly (a second `Given`, a `Then` before any `When`…), with where.
struct ScenarioProblem: Sendable {
  var message: String
  var location: SourceLocation
  init(_ message: String, _ location: SourceLocation) {
    self.message = message
    self.location = location
  }
}

/// One `When` or `Advance` of a leaf, with the checks written after it.
struct ScenarioStep<Model: FeatureModel>: Sendable {
  enum Kind: Sendable {
    /// Sends an action.
    case send(Model.Action)
    /// Moves the leaf's clock on; what work feeds back is recorded.
    case advance(Duration)
  }

  var label: String
  var kind: Kind
  var location: SourceLocation
  var checks: [ScenarioNode<Model>]
}
