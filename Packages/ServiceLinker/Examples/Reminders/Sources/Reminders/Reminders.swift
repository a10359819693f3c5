import CanonicalJSON
import FeatureKit

/// Reminders that ring after a delay unless dismissed first, and notify the
/// user once when they ring. The state and actions are plain Codable values;
/// the waiting is work on a clock the app injects (`ContinuousClock` in
/// production, a `TestClock` in tests), and the notification is a request to
/// a service outside the process (`Notifier`), which `DurableStore` sends once.
public enum Reminders: FeatureModel {
  /// A reminder waiting to ring.
  public struct Reminder: Codable, Equatable, Sendable, CanonicalCodable {
    /// What it says.
    public var title: String
    /// How long after it is set (or after the app starts again) it rings.
    public var seconds: Int

    /// A reminder of `title` in `seconds`.
    public init(title: String, seconds: Int) {
      self.title = title
      self.seconds = seconds
    }
  }

  /// The reminders set, those that rang, and those the user was notified of.
  public struct State: Codable, Equatable, Sendable, CanonicalCodable {
    /// Reminders waiting to ring, in the order they were set.
    public var pending: [Reminder]
    /// Titles that rang, in order.
    public var rung: [String]
    /// Titles the notifier delivered, in order.
    public var notified: [String]

    /// A state with these reminders.
    public init(pending: [Reminder] = [], rung: [String] = [], notified: [String] = []) {
      self.pending = pending
      self.rung = rung
      self.notified = notified
    }
  }

  /// What the app asks, and what the timer and the notifier feed back.
  public enum Action: Codable, Equatable, Sendable, CanonicalCodable {
    /// Rings `title` after `seconds` (0: at once).
    case set(title: String, seconds: Int)
    /// Cancels `title` before it rings.
    case dismiss(title: String)
    /// The timer of `title` ran out.
    case ring(title: String)
    /// The notifier delivered `title`.
    case notified(title: String)
    /// The notifier could not deliver `title` (`reason`).
    case notDelivered(title: String, reason: String)
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

  /// What the timers wait on and where notifications go.
  public struct Environment: Sendable {
    /// The clock timers sleep on.
    public var clock: any Clock<Duration>
    /// The service that shows a notification.
    public var notifier: any Notifier

    /// Timers on `clock`, notifications to `notifier`.
    public init(clock: any Clock<Duration>, notifier: any Notifier) {
      self.clock = clock
      self.notifier = notifier
    }

    /// Timers on `clock` and no notifier: for scenarios and replay, which step and send nothing.
    public init(clock: any Clock<Duration>) { self.init(clock: clock, notifier: UnreachableNotifier()) }
  }

  /// Setting, dismissing and ringing reminders.
  public static let feature = Feature<Reminders>(
    name: "reminders", actions: ["set", "dismiss", "ring", "notified", "notDelivered"])

  public static func name(of action: Action) -> String {
    switch action {
    case .set: "set"
    case .dismiss: "dismiss"
    case .ring: "ring"
    case .notified: "notified"
    case .notDelivered: "notDelivered"
    }
  }

  public static func step(_ state: inout State, _ action: Action) -> StepResult<Effect, Outcome> {
    switch action {
    case .set(let title, let seconds):
      guard !title.isEmpty, seconds >= 0 else { return refused("a reminder needs a title and a delay of 0 or more") }
      guard !state.pending.contains(where: { $0.title == title }), !state.rung.contains(title) else {
        return refused("'\(title)' is already set")
      }
      state.pending.append(Reminder(title: title, seconds: seconds))
      return StepResult(effects: [], outcome: Outcome())
    case .dismiss(let title):
      guard let index = state.pending.firstIndex(where: { $0.title == title }) else {
        return refused("no reminder '\(title)'")
      }
      state.pending.remove(at: index)
      return StepResult(effects: [], outcome: Outcome())
    case .ring(let title):
      guard let index = state.pending.firstIndex(where: { $0.title == title }) else {
        return refused("'\(title)' was dismissed")
      }
      state.pending.remove(at: index)
      state.rung.append(title)
      return StepResult(effects: [Effect(notified: title)], outcome: Outcome())
    case .notified(let title):
      state.notified.append(title)
      return StepResult(effects: [], outcome: Outcome())
    case .notDelivered(let title, let reason):
      return refused("'\(title)' was not delivered: \(reason)")
    }
  }

  public static func tasks(
    after action: Action, state: State, result: StepResult<Effect, Outcome>, environment: Environment
  ) -> [EffectTask<Action>] {
    guard result.outcome.refused == nil else { return [] }
    switch action {
    case .set(let title, let seconds): return [timer(Reminder(title: title, seconds: seconds), on: environment.clock)]
    case .dismiss(let title):
      // Work started under an id in flight replaces it: the timer is cancelled.
      return [EffectTask(id: "reminder \(title)") { nil }]
    case .ring, .notified, .notDelivered: return []
    }
  }

  /// The timer that rings `reminder`: a store waits for every pending one with a single task.
  static func timer(_ reminder: Reminder, on clock: any Clock<Duration>) -> EffectTask<Action> {
    .after(.seconds(reminder.seconds), on: clock, id: "reminder \(reminder.title)", send: .ring(title: reminder.title))
  }

  private static func refused(_ reason: String) -> StepResult<Effect, Outcome> {
    StepResult(effects: [], outcome: Outcome(refused: reason))
  }
}
