#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A clock stopped at one instant, for tests and for replay: its uptime never
/// moves, and a wait ends at once (only a cancelled task's wait throws).
public struct FixedClock: KioskClock {
  /// The instant this clock always tells.
  public var frozenNow: Date

  /// A clock stopped at `frozenNow`.
  public init(frozenNow: Date) { self.frozenNow = frozenNow }

  /// `frozenNow`.
  public func now() -> Date { frozenNow }

  /// Always zero: time does not pass.
  public func uptime() -> Duration { .zero }

  /// Returns at once, unless the task is cancelled.
  public func sleep(for duration: Duration) async throws(CancellationError) {
    if Task.isCancelled { throw CancellationError() }
  }
}
