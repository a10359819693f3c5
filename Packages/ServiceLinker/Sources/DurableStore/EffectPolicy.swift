/// How a `DurableStore` runs an outside request: each attempt is bounded by
/// `deadline` on the store's clock; a failed one is followed, after `backoff`
/// (doubled each time), by asking the service what became of it
/// (`reconcile`) and, only if it was not performed, by another attempt under
/// the same key. After `attempts` attempts the request is abandoned.
public struct EffectPolicy: Sendable, Equatable {
  /// Attempts before the request is abandoned; at least 1.
  public var attempts: Int
  /// How long one attempt, or one reconcile, may take.
  public var deadline: Duration
  /// The wait before the first retry; doubled before each later one.
  public var backoff: Duration

  /// A policy; `attempts` below 1 counts as 1.
  public init(attempts: Int = 3, deadline: Duration = .seconds(30), backoff: Duration = .seconds(1)) {
    self.attempts = max(1, attempts)
    self.deadline = deadline
    self.backoff = backoff
  }
}

/// An attempt that ran past its deadline.
public struct DeadlineExceeded: Error, Sendable, CustomStringConvertible {
  /// The deadline it had.
  public let deadline: Duration

  public var description: String { "no answer within \(deadline)" }
}

/// Runs `operation`, giving up with `DeadlineExceeded` when `clock` passes
/// `deadline` first; the loser is cancelled.
func withDeadline<Value: Sendable>(
  _ deadline: Duration, on clock: any Clock<Duration>, _ operation: @escaping @Sendable () async throws -> Value
) async throws -> Value {
  try await withThrowingTaskGroup(of: Race<Value>.self) { group in
    group.addTask { .finished(try await operation()) }
    group.addTask {
      try await clock.sleep(for: deadline)
      return .timedOut
    }
    defer { group.cancelAll() }
    guard case .finished(let value) = try await group.next() else { throw DeadlineExceeded(deadline: deadline) }
    return value
  }
}

/// Which side of `withDeadline` ended first.
private enum Race<Value: Sendable>: Sendable {
  case finished(Value)
  case timedOut
}
