import CanonicalJSON
import FeatureKit
import Foundation
import Testing

/// One path through a scenario: its `Given`, then every step on the way to a
/// branch with no branch inside. One test case and one recording.
public struct ScenarioLeaf<Model: FeatureModel>: Sendable, CustomTestStringConvertible {
  let scenario: Scenario<Model>
  /// The branch labels from the scenario down to this leaf.
  public let labels: [String]
  let given: Model.State?
  let steps: [ScenarioStep<Model>]
  let problems: [ScenarioProblem]

  /// The feature the leaf pins.
  public var feature: Feature<Model> { scenario.feature }

  /// The scenario's name and the branch labels: `a filled tab › the card is declined`.
  public var label: String { ([scenario.name] + labels).joined(separator: " › ") }

  /// The recording's name: the label's parts as slugs, joined by dots (`a-filled-tab.the-card-is-declined`).
  public var fixture: String { ([scenario.name] + labels).map(Self.slug).joined(separator: ".") }

  public var testDescription: String { "\(feature.name): \(label)" }

  /// Where the scenario is declared.
  public var location: SourceLocation { scenario.location }

  /// Lowercase ASCII letters and digits; apostrophes dropped; any other run one `-`.
  static func slug(_ text: String) -> String {
    var slug = ""
    for scalar in text.lowercased().unicodeScalars where !["'", "\u{2019}", "\u{02BC}"].contains(scalar) {
      if ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) {
        slug.unicodeScalars.append(scalar)
      } else if !slug.isEmpty, slug.last != "-" {
        slug.append("-")
      }
    }
    while slug.last == "-" { slug.removeLast() }
    return slug
  }

  /// Runs the leaf and returns its recording. Every problem, refused action
  /// and failing check is recorded as an issue at its line; the recording is
  /// nil when there was any, so that nothing wrong is ever recorded.
  public func run() -> JSONValue? {
    for problem in problems { Issue.record(Comment(rawValue: problem.message), sourceLocation: problem.location) }
    guard problems.isEmpty, var state = given else { return nil }
    let givenJSON = state.canonical
    var recorded: [JSONValue] = []
    var passed = true
    for step in steps {
      let result: StepResult<Model.Effect, Model.Outcome>
      let canonicalState: JSONValue
      do {
        (result, canonicalState) = try feature.step(&state, step.action)
      } catch {
        Issue.record(Comment(rawValue: "'\(step.label)': \(error.reason)"), sourceLocation: step.location)
        return nil
      }
      for check in step.checks where !holds(check, state: state, result: result) {
        passed = false
        Issue.record(
          Comment(rawValue: "\(checkName(check)) does not hold after '\(step.label)' (\(testDescription))"),
          sourceLocation: check.location)
      }
      var fields = Feature<Model>.answer(canonicalState: canonicalState, result: result)
      fields["action"] = step.action.canonical
      fields["label"] = .string(step.label)
      fields["line"] = .integer(step.location.line)
      recorded.append(.object(fields))
    }
    guard passed else { return nil }
    return .object([
      "description": .string(scenario.description), "feature": .string(feature.name), "given": givenJSON,
      "leaf": .string(label), "steps": .array(recorded),
    ])
  }

  private func holds(
    _ check: ScenarioNode<Model>, state: Model.State, result: StepResult<Model.Effect, Model.Outcome>
  ) -> Bool {
    switch check.kind {
    case .then(_, let predicate): predicate(state)
    case .thenEffects(_, let predicate): predicate(result.effects)
    case .thenOutcome(_, let predicate): predicate(result.outcome)
    case .given, .when, .branch: true
    }
  }

  private func checkName(_ check: ScenarioNode<Model>) -> String {
    switch check.kind {
    case .then(let label, _): "Then '\(label)'"
    case .thenEffects(let label, _): "ThenEffects '\(label)'"
    case .thenOutcome(let label, _): "ThenOutcome '\(label)'"
    case .given, .when, .branch: "a check"
    }
  }

  /// Where in the scenario a path of the recording comes from: the `When`
  /// of `steps[i]`, or the scenario itself.
  func location(ofRecordingPath path: String) -> SourceLocation {
    guard path.hasPrefix("steps["), let close = path.firstIndex(of: "]"),
      let index = Int(path[path.index(path.startIndex, offsetBy: 6)..<close]), steps.indices.contains(index)
    else { return scenario.location }
    return steps[index].location
  }
}
