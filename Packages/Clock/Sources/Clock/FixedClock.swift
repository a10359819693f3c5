import Foundation

/// A clock stopped at one instant, for tests and for replay.
public struct FixedClock: KioskClock {
  /// The instant this clock always tells.
  public var frozenNow: Date

  /// A clock stopped at `frozenNow`.
  public init(frozenNow: Date) { self.frozenNow = frozenNow }

  /// `frozenNow`.
  public func now() -> Date { frozenNow }
}
