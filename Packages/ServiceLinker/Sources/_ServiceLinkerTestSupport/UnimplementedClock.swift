import Testing
import VirtualTime

/// A clock for code under test that must not wait: reading it is allowed,
/// sleeping on it records an issue at the sleeper's call to `sleep` (naming the
/// task) and then throws `CancellationError`, so the work stops instead of hanging.
public struct UnimplementedClock: Clock {
  /// A point on the clock.
  public typealias Instant = TestClock.Instant

  private let name: String
  private let location: SourceLocation

  /// A clock named `name` (in its issues), created at `sourceLocation`.
  public init(_ name: String = "the clock", sourceLocation: SourceLocation = #_sourceLocation) {
    self.name = name
    location = sourceLocation
  }

  /// Always t+0.
  public var now: Instant { Instant(offset: .zero) }

  /// Zero: it never measures anything.
  public var minimumResolution: Duration { .zero }

  /// Records an issue and throws `CancellationError`.
  public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
    Issue.record(
      Comment(
        rawValue: "\(Task.name ?? "an unnamed task") slept on \(name) until \(deadline), which is unimplemented here"),
      sourceLocation: location)
    throw CancellationError()
  }
}
