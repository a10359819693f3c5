import CanonicalJSON
import FeatureKit
import VirtualTime

/// A feature with time in it: a kettle that boils three seconds after it is
/// switched on, unless it is switched off first. Its work sleeps on the
/// environment's clock, so tests run it on virtual time.
enum Kettle: FeatureModel {
  struct State: Codable, Equatable, Sendable, CanonicalCodable {
    var on = false
    var boiled = 0
  }

  enum Action: Codable, Equatable, Sendable, CanonicalCodable {
    case switchOn
    case switchOff
    case boiled
  }

  struct Effect: Codable, Equatable, Sendable, CanonicalEncodable {}

  struct Outcome: Codable, Equatable, Sendable, CanonicalEncodable {
    var refused: String?
  }

  struct Environment: Sendable {
    var clock: TestClock
  }

  static func name(of action: Action) -> String {
    switch action {
    case .switchOn: "switchOn"
    case .switchOff: "switchOff"
    case .boiled: "boiled"
    }
  }

  static func step(_ state: inout State, _ action: Action) -> StepResult<Effect, Outcome> {
    switch action {
    case .switchOn:
      guard !state.on else { return StepResult(effects: [], outcome: Outcome(refused: "already on")) }
      state.on = true
    case .switchOff:
      state.on = false
    case .boiled:
      guard state.on else { return StepResult(effects: [], outcome: Outcome(refused: "switched off")) }
      state.on = false
      state.boiled += 1
    }
    return StepResult(effects: [], outcome: Outcome())
  }

  static func tasks(
    after action: Action, state: State, result: StepResult<Effect, Outcome>, environment: Environment
  ) -> [EffectTask<Action>] {
    switch action {
    case .switchOn where result.outcome.refused == nil:
      [
        EffectTask(id: "heat") {
          do { try await environment.clock.sleep(for: .seconds(3)) } catch { return nil }
          return .boiled
        }
      ]
    case .switchOff:
      // Starting work under the id in flight cancels it: nothing is heating any more.
      [EffectTask(id: "heat") { nil }]
    default: []
    }
  }

  static let brewing = Feature<Kettle>(name: "brewing", actions: ["switchOn", "switchOff", "boiled"])
}
