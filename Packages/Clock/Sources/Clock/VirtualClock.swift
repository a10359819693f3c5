public import VirtualTime

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The kiosk's clock on virtual time: the framework's `TestClock`, which moves
/// only when a test advances it, told in the kiosk's vocabulary (a receipt's
/// date, uptime for deadlines, waits that throw only on cancellation).
public struct VirtualClock: KioskClock {
  /// The virtual time it reads and waits on; advance it to move this clock.
  public let testClock: TestClock

  /// The kiosk's clock on `testClock`.
  public init(_ testClock: TestClock) { self.testClock = testClock }

  /// The test clock's start date, moved on by the time advanced so far.
  public func now() -> Date { testClock.date }

  /// The time advanced so far.
  public func uptime() -> Duration { testClock.elapsed }

  /// Suspends until the test clock is advanced past `duration` from now.
  public func sleep(for duration: Duration) async throws(CancellationError) {
    try await testClock.sleep(for: duration)
  }
}
