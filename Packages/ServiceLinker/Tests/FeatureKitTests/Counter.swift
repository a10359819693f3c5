import CanonicalJSON
import FeatureKit

/// A feature that knows nothing of any app: a counter whose state and actions
/// are plain Codable values, with canonical forms from their coding keys.
enum Counter: FeatureModel {
  struct State: Codable, Equatable, Sendable, CanonicalCodable {
    var count: Int
    var log: [String]
  }

  enum Action: Codable, Equatable, Sendable, CanonicalCodable {
    case increment
    case add(amount: Int)
    case reset
  }

  /// What a step asked of the world outside: a line for the log service.
  struct Effect: Codable, Equatable, Sendable, CanonicalEncodable {
    var logged: String
  }

  /// A refusal, or nothing.
  struct Outcome: Codable, Equatable, Sendable, CanonicalEncodable {
    var refused: String?
  }

  static func name(of action: Action) -> String {
    switch action {
    case .increment: "increment"
    case .add: "add"
    case .reset: "reset"
    }
  }

  static func step(_ state: inout State, _ action: Action) -> StepResult<Effect, Outcome> {
    switch action {
    case .increment:
      state.count += 1
      return StepResult(effects: [], outcome: Outcome())
    case .add(let amount):
      guard amount > 0 else { return StepResult(effects: [], outcome: Outcome(refused: "add a positive amount")) }
      state.count += amount
      return StepResult(effects: [], outcome: Outcome())
    case .reset:
      let line = "reset from \(state.count)"
      state.log.append(line)
      state.count = 0
      return StepResult(effects: [Effect(logged: line)], outcome: Outcome())
    }
  }

  static let counting = Feature<Counter>(name: "counting", actions: ["increment", "add"])
  static let resetting = Feature<Counter>(name: "resetting", actions: ["increment", "reset"])
  static let registry = ReplayRegistry([.feature(counting), .feature(resetting)])
}
