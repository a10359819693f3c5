#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Where commands get the time, and where effects wait. Never `Date()` or
/// `Task.sleep` in a command or an effect: replay and tests would differ.
///
/// In the standard vocabulary: waits and deadlines are `Duration`s, measured
/// on a monotonic axis (`uptime()`), as a standard `Clock` measures them. The
/// test clock is a standard `Clock` too.
public protocol KioskClock: Sendable {
  /// The current time, as this clock tells it: what a receipt is stamped with.
  func now() -> Date

  /// Monotonic time since this clock started: what deadlines are measured on.
  func uptime() -> Duration

  /// Suspends for `duration` of this clock's time; throws when the task is cancelled.
  func sleep(for duration: Duration) async throws(CancellationError)
}
