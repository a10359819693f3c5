import CanonicalJSON
import DurableStore
import FeatureKit

/// Reminders on a `DurableStore`: a reminder that rings asks the notifier to
/// show it, journaled as an intent first, so that it is shown once even when
/// the process is killed between asking and hearing back.
extension Reminders: DurableFeature {
  /// A notification to show.
  public struct Request: Codable, Equatable, Sendable, CanonicalCodable {
    /// The reminder's title.
    public var title: String
  }

  public static func requests(after action: Action, state: State, result: StepResult<Effect, Outcome>) -> [Request] {
    result.effects.map { Request(title: $0.notified) }
  }

  public static func perform(_ request: Request, key: IntentKey, environment: Environment) async throws -> Action? {
    try await environment.notifier.deliver(request.title, key: key.text)
    return .notified(title: request.title)
  }

  public static func reconcile(_ request: Request, key: IntentKey, environment: Environment) async throws
    -> Reconciliation<Action>
  {
    try await environment.notifier.wasDelivered(key: key.text)
      ? .completed(feedBack: .notified(title: request.title)) : .notPerformed
  }

  public static func abandoned(_ request: Request, reason: String) -> Action? {
    .notDelivered(title: request.title, reason: reason)
  }

  /// A refused step (a reminder set twice, a dismiss of none) is answered and not journaled.
  public static func isRefusal(_ outcome: Outcome) -> Bool { outcome.refused != nil }

  public static func inverse(of action: Action, before: State) -> Action? {
    switch action {
    case .set(let title, _): .dismiss(title: title)
    case .dismiss(let title): before.pending.first { $0.title == title }.map { .set(title: title, seconds: $0.seconds) }
    case .ring, .notified, .notDelivered: nil
    }
  }

  /// A reminder's timer starts again, from its whole delay, when the app does.
  public static func resumedTasks(state: State, environment: Environment) -> [EffectTask<Action>] {
    state.pending.map { timer($0, on: environment.clock) }
  }
}
