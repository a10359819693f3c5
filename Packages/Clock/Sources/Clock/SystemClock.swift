#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The wall clock and the system's monotonic clock: production's time source.
public struct SystemClock: KioskClock {
  /// Where `uptime()` counts from: the first use of any system clock in the process.
  private static let origin = ContinuousClock.now

  /// Creates the clock.
  public init() { _ = Self.origin }

  /// `Date()`.
  public func now() -> Date { Date() }

  /// `ContinuousClock` time since the process first used a system clock.
  public func uptime() -> Duration { Self.origin.duration(to: .now) }

  /// `ContinuousClock`'s sleep.
  public func sleep(for duration: Duration) async throws(CancellationError) {
    do { try await ContinuousClock().sleep(for: duration) } catch { throw CancellationError() }
  }
}
