import Synchronization

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Virtual time: a standard `Clock` that moves only when a test moves it.
///
/// `sleep(for:)` suspends the caller until the clock is advanced past its
/// deadline. `advance(by:)` wakes each sleeper whose deadline passes, in
/// deadline order, with the time set to that deadline. After each one it lets
/// the woken work run on (`settle`) before it wakes the next. No real time
/// passes: a test of a ten-second deadline runs in microseconds.
///
/// It is a plain `Clock` (`now`, `sleep(until:tolerance:)`), so code that takes
/// `some Clock<Duration>` runs on it unchanged; an app whose own clock protocol
/// says more (a wall-clock date) wraps it, as the kiosk's `VirtualClock` does.
/// It knows no app.
public final class TestClock: Clock, Sendable {
  /// A point on the clock: how long after the clock started.
  public struct Instant: InstantProtocol, CustomStringConvertible {
    /// Time since the clock started.
    public var offset: Duration

    /// The instant `offset` after the start.
    public init(offset: Duration) { self.offset = offset }

    /// The instant `duration` after this one.
    public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
    /// How long from this instant to `other` (negative when `other` is earlier).
    public func duration(to other: Instant) -> Duration { other.offset - offset }
    /// Whether `lhs` comes before `rhs`.
    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    /// `t+1.5 seconds`: the offset from the start.
    public var description: String { "t+\(offset)" }
  }

  /// A task waiting on the clock: its name (the task's, `Task(name:)`) and until when.
  public struct Sleeper: Sendable, Equatable, CustomStringConvertible {
    /// The order it started sleeping in.
    public let id: Int
    /// When it wakes.
    public let deadline: Instant
    /// The sleeping task's name, or "an unnamed task".
    public let label: String

    public var description: String { "\(label) (until \(deadline))" }
  }

  private struct Waiting {
    var sleeper: Sleeper
    var continuation: CheckedContinuation<Void, any Error>
  }

  private struct State {
    var now = Instant(offset: .zero)
    var nextID = 0
    var waiting: [Int: Waiting] = [:]
    /// Sleepers cancelled before they were registered.
    var cancelled: Set<Int> = []
    var settle: @Sendable () async -> Void = TestClock.yieldToWokenWork
  }

  private let state = Mutex(State())
  /// The date `now()` tells at the start; it moves with the clock.
  public let startDate: Date

  /// A clock at t+0, telling `startDate` as its date.
  public init(startDate: Date = Date(timeIntervalSince1970: 1_750_000_000)) {
    self.startDate = startDate
  }

  /// The current instant.
  public var now: Instant { state.withLock { $0.now } }

  /// No tolerance: a sleeper wakes exactly at its deadline.
  public var minimumResolution: Duration { .zero }

  /// `startDate`, moved on by the time advanced so far.
  public var date: Date { startDate.addingTimeInterval(Self.seconds(now.offset)) }

  /// Time advanced so far.
  public var elapsed: Duration { now.offset }

  /// The tasks waiting on the clock, soonest first.
  public var sleepers: [Sleeper] {
    state.withLock { $0.waiting.values.map(\.sleeper) }.sorted { ($0.deadline, $0.id) < ($1.deadline, $1.id) }
  }

  /// What `advance` and `run` await before they look for sleepers and after
  /// waking each one, so that the woken work runs until it waits again or
  /// ends. By default a few hundred yields, which is a guess: on a busy
  /// machine woken work may not have run by then. A test that needs the order
  /// exactly replaces it with a test of its own work (a harness that waits
  /// until every effect in flight is asleep on the clock or done).
  public var settle: @Sendable () async -> Void {
    get { state.withLock { $0.settle } }
    set { state.withLock { $0.settle = newValue } }
  }

  /// Suspends until the clock reaches `now.advanced(by: duration)`.
  public func sleep(for duration: Duration) async throws(CancellationError) {
    try await sleep(until: now.advanced(by: duration))
  }

  /// The `Clock` requirement: suspends until the clock reaches `deadline`.
  public func sleep(until deadline: Instant, tolerance: Duration?) async throws {
    try await sleep(until: deadline)
  }

  /// Suspends until the clock reaches `deadline`: at once when it has.
  public func sleep(until deadline: Instant) async throws(CancellationError) {
    let label = Task.name ?? "an unnamed task"
    let id = state.withLock { state in
      state.nextID += 1
      return state.nextID
    }
    do {
      try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
          enum Now { case wait, wake, cancel }
          let now: Now = state.withLock { state in
            if state.cancelled.remove(id) != nil { return .cancel }
            if deadline <= state.now { return .wake }
            state.waiting[id] = Waiting(
              sleeper: Sleeper(id: id, deadline: deadline, label: label), continuation: continuation)
            return .wait
          }
          switch now {
          case .wait: break
          case .wake: continuation.resume()
          case .cancel: continuation.resume(throwing: CancellationError())
          }
        }
      } onCancel: {
        let waiting = state.withLock { state in
          guard let waiting = state.waiting.removeValue(forKey: id) else {
            state.cancelled.insert(id)
            return Waiting?.none
          }
          return waiting
        }
        waiting?.continuation.resume(throwing: CancellationError())
      }
    } catch {
      throw CancellationError()
    }
  }

  /// Moves the clock on by `duration`, waking each sleeper whose deadline
  /// passes, in deadline order (then in the order they slept), and letting each
  /// one's work run on before the next. It first lets running work reach its
  /// next wait, so that a task started just before waits from the current instant.
  public func advance(by duration: Duration) async {
    await advance(to: now.advanced(by: duration))
  }

  /// Moves the clock on to `target` (never back), as `advance(by:)` does.
  public func advance(to target: Instant) async {
    // Work started just before (a task not yet at its first wait) waits from now, not from after the move.
    await settle()
    while let waiting = wakeNext(notAfter: target) {
      waiting.continuation.resume()
      await settle()
    }
  }

  /// Advances to each pending deadline in turn, the soonest first, until no
  /// task waits, or `limit` deadlines have been reached (a task that sleeps
  /// again and again would otherwise keep it going forever).
  public func run(limit: Int = 10_000) async {
    var reached = 0
    await settle()
    while reached < limit, let first = sleepers.first {
      await advance(to: first.deadline)
      reached += 1
    }
  }

  /// Removes and returns the soonest sleeper due by `target`, with the time set
  /// to its deadline; or, when none is due, sets the time to `target` under the
  /// same lock, so that no sleeper can register in between with a deadline
  /// already passed.
  private func wakeNext(notAfter target: Instant) -> Waiting? {
    state.withLock { state in
      guard
        let next = state.waiting.values.filter({ $0.sleeper.deadline <= target })
          .min(by: { ($0.sleeper.deadline, $0.sleeper.id) < ($1.sleeper.deadline, $1.sleeper.id) })
      else {
        if state.now < target { state.now = target }
        return nil
      }
      state.waiting[next.sleeper.id] = nil
      if state.now < next.sleeper.deadline { state.now = next.sleeper.deadline }
      return next
    }
  }

  /// The default `settle`: yields, so that woken tasks get to run.
  public static let yieldToWokenWork: @Sendable () async -> Void = {
    for _ in 0..<200 { await Task.yield() }
  }

  static func seconds(_ duration: Duration) -> TimeInterval {
    let (seconds, attoseconds) = duration.components
    return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
  }
}
