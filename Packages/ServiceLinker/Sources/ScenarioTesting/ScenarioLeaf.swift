import CanonicalJSON
import FeatureKit
import Foundation
import Testing
import VirtualTime

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

  /// Runs the leaf on a `Store`, the way an app runs the feature, on a
  /// fresh `TestClock` that `Advance` moves, and returns its recording. Every
  /// problem, refused action, failing check and piece of work left in flight
  /// is recorded as an issue at its line; the recording is nil when there was
  /// any, so that nothing wrong is ever recorded.
  ///
  /// Each step sent is recorded, and so is each action its work fed back
  /// (`"received": true`), with the state it left: the replay lane sends
  /// every one of them as a request.
  @MainActor
  public func run() async -> JSONValue? {
    for problem in problems { Issue.record(Comment(rawValue: problem.message), sourceLocation: problem.location) }
    guard problems.isEmpty, let given else { return nil }
    let clock = TestClock()
    let store = Store<Model>(state: given, environment: scenario.environment(clock))
    let log = StepLog<Model>()
    store.onStep = { step in log.steps.append((step, store.state)) }
    clock.settle = { await store.settle { Set(clock.sleepers.map(\.label)) } }
    var recorded: [JSONValue] = []
    var passed = true
    for step in steps {
      log.steps.removeAll()
      switch step.kind {
      case .send(let action):
        do { try feature.check(action) } catch {
          Issue.record(Comment(rawValue: "'\(step.label)': \(error.reason)"), sourceLocation: step.location)
          return nil
        }
        store.send(action)
        await clock.settle()
      case .advance(let duration):
        await clock.advance(by: duration)
      }
      for (done, state) in log.steps {
        let canonicalState: JSONValue
        do { canonicalState = try feature.canonicalForm(of: state) } catch {
          Issue.record(Comment(rawValue: "'\(step.label)': \(error.reason)"), sourceLocation: step.location)
          return nil
        }
        var fields = Feature<Model>.answer(canonicalState: canonicalState, result: done.result)
        fields["action"] = done.action.canonical
        fields["label"] = .string(
          done.wasFedBack ? "fed back: \(Model.name(of: done.action)) (after '\(step.label)')" : step.label)
        fields["line"] = .integer(step.location.line)
        fields["received"] = .bool(done.wasFedBack)
        recorded.append(.object(fields))
      }
      let (effects, outcome) = observed(after: step, log.steps.map(\.step))
      for check in step.checks where !holds(check, state: store.state, effects: effects, outcome: outcome) {
        passed = false
        let why = outcome == nil ? "; nothing was fed back" : ""
        Issue.record(
          Comment(rawValue: "\(checkName(check)) does not hold after '\(step.label)' (\(testDescription))\(why)"),
          sourceLocation: check.location)
      }
    }
    if !store.inFlight.isEmpty {
      Issue.record(
        Comment(
          rawValue: "work still in flight at the end of \(testDescription): \(store.inFlight); "
            + "add an Advance that lets it finish"),
        sourceLocation: steps.last?.location ?? location)
      await store.cancelAll()
      return nil
    }
    guard passed else { return nil }
    return .object([
      "description": .string(scenario.description), "feature": .string(feature.name), "given": given.canonical,
      "leaf": .string(label), "steps": .array(recorded),
    ])
  }

  /// What the checks after `step` see: for a `When`, its own step's effects
  /// and outcome; for an `Advance`, the effects of every action fed back and
  /// the outcome of the last (none when nothing was fed back).
  private func observed(after step: ScenarioStep<Model>, _ done: [Store<Model>.Step])
    -> (effects: [Model.Effect], outcome: Model.Outcome?)
  {
    if case .send = step.kind, let first = done.first { return (first.result.effects, first.result.outcome) }
    return (done.flatMap(\.result.effects), done.last?.result.outcome)
  }

  private func holds(
    _ check: ScenarioNode<Model>, state: Model.State, effects: [Model.Effect], outcome: Model.Outcome?
  ) -> Bool {
    switch check.kind {
    case .then(_, let predicate): predicate(state)
    case .thenEffects(_, let predicate): predicate(effects)
    case .thenOutcome(_, let predicate): outcome.map(predicate) ?? false
    case .given, .when, .advance, .branch: true
    }
  }

  private func checkName(_ check: ScenarioNode<Model>) -> String {
    switch check.kind {
    case .then(let label, _): "Then '\(label)'"
    case .thenEffects(let label, _): "ThenEffects '\(label)'"
    case .thenOutcome(let label, _): "ThenOutcome '\(label)'"
    case .given, .when, .advance, .branch: "a check"
    }
  }

  /// Where in the scenario a path of `recording` comes from: the `When` or
  /// `Advance` of the step it names (its `line`), or the scenario itself.
  func location(ofRecordingPath path: String, in recording: JSONValue) -> SourceLocation {
    guard path.hasPrefix("steps["), let close = path.firstIndex(of: "]"),
      let index = Int(path[path.index(path.startIndex, offsetBy: 6)..<close]),
      case .object(let members) = recording, case .array(let recorded)? = members["steps"],
      recorded.indices.contains(index), case .object(let step) = recorded[index],
      case .integer(let line)? = step["line"]
    else { return scenario.location }
    return SourceLocation(
      fileID: scenario.location.fileID, filePath: scenario.location.filePath, line: line, column: 1)
  }
}

/// The steps a store ran since the log was last emptied, with the state each left.
@MainActor
final class StepLog<Model: FeatureModel> {
  var steps: [(step: Store<Model>.Step, state: Model.State)] = []
}
