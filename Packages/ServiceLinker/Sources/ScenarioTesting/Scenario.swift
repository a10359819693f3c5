import CanonicalJSON
import FeatureKit
import Testing

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

  /// A scenario of `feature` called `name`.
  public init(
    _ feature: Feature<Model>, _ name: String, description: String,
    sourceLocation: SourceLocation = #_sourceLocation, @ScenarioBuilder<Model> _ body: () -> [ScenarioNode<Model>]
  ) {
    self.feature = feature
    self.name = name
    self.description = description
    self.location = sourceLocation
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
        steps.append(ScenarioStep(label: label, action: action, location: node.location, checks: []))
      case .then, .thenEffects, .thenOutcome:
        guard !steps.isEmpty else {
          problems.append(.init("a Then checks the step before it: put a When first", node.location))
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

/// A scenario written wrongly (a second `Given`, a `Then` before any `When`…), with where.
struct ScenarioProblem: Sendable {
  var message: String
  var location: SourceLocation
  init(_ message: String, _ location: SourceLocation) {
    self.message = message
    self.location = location
  }
}

/// One `When` of a leaf, with the checks written after it.
struct ScenarioStep<Model: FeatureModel>: Sendable {
  var label: String
  var action: Model.Action
  var location: SourceLocation
  var checks: [ScenarioNode<Model>]
}
