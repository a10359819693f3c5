import Clock

/// The till's clock (`KioskClock`) as a Swift `Clock`, so the durable store's
/// deadlines, retries and backoffs run on the same clock as the network to
/// the processor and the receipts' stamps: the system's in production, a
/// virtual one in tests. Its instants are the clock's uptime.
public struct TillClock: Clock, Sendable {
  /// A point on the till clock's uptime.
  public struct Instant: InstantProtocol, Hashable, Sendable {
    /// Time since the clock started.
    public var offset: Duration

    public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
    public func duration(to other: Instant) -> Duration { other.offset - offset }
    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
  }

  /// The clock it reads.
  public let base: any KioskClock

  /// `base` as a Swift `Clock`.
  public init(_ base: any KioskClock) { self.base = base }

  public var now: Instant { Instant(offset: base.uptime()) }

  public var minimumResolution: Duration { .nanoseconds(1) }

  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try await base.sleep(for: max(.zero, now.duration(to: deadline)))
  }
}
