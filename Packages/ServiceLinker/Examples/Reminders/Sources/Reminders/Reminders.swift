import CanonicalJSON
import FeatureKit

/// Reminders that ring after a delay unless dismissed first: the state and
/// actions are plain Codable values, and the waiting is work on a clock the
/// app injects (`ContinuousClock` in production, a `TestClock` in tests).
public enum Reminders: FeatureModel {
  /// The reminders set and those that rang.
  public struct State: Codable, Equatable, Sendable, CanonicalCodable {
    /// Titles waiting to ring, in the order they were set.
    public var pending: [String]
    /// Titles that rang, in order.
    public var rung: [String]

    /// A state with these reminders.
    public init(pending: [String] = [], rung: [String] = []) {
      self.pending = pending
      self.rung = rung
    }
  }

  /// What the app asks, and what the timer feeds back.
  public enum Action: Codable, Equatable, Sendable, CanonicalCodable {
    /// Rings `title` after `seconds`.
    case set(title: String, seconds: Int)
    /// Cancels `title` before it rings.
    case dismiss(title: String)
    /// The timer of `title` ran out.
    case ring(title: String)
  }

  /// A notification shown to the user.
  public struct Effect: Codable, Equatable, Sendable, CanonicalEncodable {
    /// The reminder's title.
    public var notified: String

    /// A notification of `notified`.
    public init(notified: String) { self.notified = notified }
  }

  /// Why an action was refused, if it was.
  public struct Outcome: Codable, Equatable, Sendable, CanonicalEncodable {
    /// The reason; nil when the action went through.
    public var refused: String?

    /// An outcome, refused for `refused` when it is given.
    public init(refused: String? = nil) { self.refused = refused }
  }

  /// What the timers wait on.
  public struct Environment: Sendable {
    /// The clock timers sleep on.
    public var clock: any Clock<Duration>

    /// Timers on `clock`.
    public init(clock: any Clock<Duration>) { self.clock = clock }
  }

  /// Setting, dismissing and ringing reminders.
  public static let feature = Feature<Reminders>(name: "reminders", actions: ["set", "dismiss", "ring"])

  public static func name(of action: Action) -> String {
    switch action {
    case .set: "set"
    case .dismiss: "dismiss"
    case .ring: "ring"
    }
  }

  public static func step(_ state: inout State, _ action: Action) -> StepResult<Effect, Outcome> {
    switch action {
    case .set(let title, let seconds):
      guard !title.isEmpty, seconds > 0 else { return refused("a reminder needs a title and a delay") }
      guard !state.pending.contains(title) else { return refused("'\(title)' is already set") }
      state.pending.append(title)
      return StepResult(effects: [], outcome: Outcome())
    case .dismiss(let title):
      guard let index = state.pending.firstIndex(of: title) else { return refused("no reminder '\(title)'") }
      state.pending.remove(at: index)
      return StepResult(effects: [], outcome: Outcome())
    case .ring(let title):
      guard let index = state.pending.firstIndex(of: title) else { return refused("'\(title)' was dismissed") }
      state.pending.remove(at: index)
      state.rung.append(title)
      return StepResult(effects: [Effect(notified: title)], outcome: Outcome())
    }
  }

  public static func tasks(
    after action: Action, state: State, result: StepResult<Effect, Outcome>, environment: Environment
  ) -> [EffectTask<Action>] {
    guard result.outcome.refused == nil else { return [] }
    switch action {
    case .set(let title, let seconds):
      let clock = environment.clock
      return [
        EffectTask(id: "reminder \(title)") {
          do { try await clock.sleep(for: .seconds(seconds)) } catch { return nil }
          return .ring(title: title)
        }
      ]
    case .dismiss(let title):
      // Work started under an id in flight replaces it: the timer is cancelled.
      return [EffectTask(id: "reminder \(title)") { nil }]
    case .ring: return []
    }
  }

  private static func refused(_ reason: String) -> StepResult<Effect, Outcome> {
    StepResult(effects: [], outcome: Outcome(refused: reason))
  }
}
