import Foundation

/// Where commands get the time. Never `Date()` in a command: replay would differ.
public protocol KioskClock: Sendable {
  /// The current time, as this clock tells it.
  func now() -> Date
}
