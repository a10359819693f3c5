import Synchronization

/// A clock on which every sleep ends at once, moving the clock to its
/// deadline: for tests that need work to run through its waits and do not
/// care when (a retry loop, a debounce), with none of a `TestClock`'s steering.
public final class ImmediateClock: Clock, Sendable {
  /// A point on the clock: how long after it started.
  public typealias Instant = TestClock.Instant

  private let current = Mutex(Instant(offset: .zero))

  /// A clock at t+0.
  public init() {}

  /// The latest deadline reached.
  public var now: Instant { current.withLock { $0 } }

  /// No tolerance: sleeps end exactly at their deadlines, at once.
  public var minimumResolution: Duration { .zero }

  /// Moves the clock to `deadline` (never back) and returns, unless the task is cancelled.
  public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
    try Task.checkCancellation()
    current.withLock { if $0 < deadline { $0 = deadline } }
    await Task.yield()
  }
}
