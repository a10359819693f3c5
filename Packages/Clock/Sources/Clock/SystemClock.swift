import Foundation

/// The wall clock: production's time source.
public struct SystemClock: KioskClock {
  /// Creates the clock.
  public init() {}

  /// `Date()`.
  public func now() -> Date { Date() }
}
