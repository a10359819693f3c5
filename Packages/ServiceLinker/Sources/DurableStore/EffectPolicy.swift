import Synchronization

/// How a `DurableStore` runs an outside request: each attempt is bounded by
/// `deadline` on the store's clock; a failed one is followed, after a wait,
/// by asking the service what became of it (`reconcile`) and, only if it was
/// not performed, by another attempt under the same key. The wait before
/// retry `n` is `backoff · 2^(n−1)`, at most `maxBackoff`, plus up to
/// `jitter · backoff` drawn from `DurableStoreOptions.jitter`. After
/// `attempts` attempts, or when the next could not start within
/// `totalDeadline` of the first, the request is abandoned; so is one whose
/// service refused it for good (`DurableFeature.finalFailure`), at once.
/// With `reconcileFirst`, the service is asked before the first attempt too.
/// Without `performAfterRestart`, a request found open when the store opens
/// that its service never got is abandoned rather than performed.
public struct EffectPolicy: Sendable, Equatable {
  /// Attempts before the request is abandoned; at least 1.
  public var attempts: Int
  /// How long one attempt, or one reconcile, may take.
  public var deadline: Duration
  /// The wait before the first retry; doubled before each later one.
  public var backoff: Duration
  /// The longest wait between attempts, before jitter; nil for none.
  public var maxBackoff: Duration?
  /// The most added to each wait, as a fraction of `backoff`, so that many
  /// clients failing together do not retry together; 0 for none.
  public var jitter: Double
  /// How long after the first attempt the last may start; nil for no bound
  /// but `attempts`. Counted in the process that runs the request: one that
  /// opens the store again after a crash counts afresh.
  public var totalDeadline: Duration?
  /// Whether the service is asked what became of a request before its first
  /// attempt too, not only after a crash or a failed attempt: for a service
  /// that may have seen the key before (a journal restored from a copy gives
  /// its sequence numbers, so its keys, again).
  public var reconcileFirst: Bool
  /// Whether a request its service never got, found open when the store
  /// opens after a crash, is performed then (the default: a reminder still
  /// due is sent) or abandoned (a till's charge: the customer who waited for
  /// it may have left, and the till is asked again if not).
  public var performAfterRestart: Bool
  /// Whether a request whose attempts all failed without a refusal (they ran
  /// out of time, or failed on the way) stays open instead of being given up
  /// when the service cannot say it was done: the store stops working on it,
  /// `outcome(of:)` says it was left `unanswered`, and the next open (or
  /// `reconcileOpenIntents()`) asks the service again. For a service that may
  /// still act on a request it has no record of yet (a payment processor
  /// behind a slow or silent network): giving it up would say nothing moved
  /// when something may. A request never attempted that the service says it
  /// never got is given up all the same.
  public var leavesUnansweredOpen: Bool

  /// A policy; `attempts` below 1 counts as 1, and a `jitter` outside
  /// `0...1` (or NaN) is brought into it.
  public init(
    attempts: Int = 3, deadline: Duration = .seconds(30), backoff: Duration = .seconds(1), maxBackoff: Duration? = nil,
    jitter: Double = 0, totalDeadline: Duration? = nil, reconcileFirst: Bool = false,
    performAfterRestart: Bool = true, leavesUnansweredOpen: Bool = false
  ) {
    self.attempts = max(1, attempts)
    self.deadline = deadline
    self.backoff = backoff
    self.maxBackoff = maxBackoff
    self.jitter = Self.fraction(jitter, below: 1)
    self.totalDeadline = totalDeadline
    self.reconcileFirst = reconcileFirst
    self.performAfterRestart = performAfterRestart
    self.leavesUnansweredOpen = leavesUnansweredOpen
  }

  /// Why no attempt may start at `elapsed` after the first, when it is past
  /// the total deadline; nil when one may.
  func missedTotalDeadline(at elapsed: Duration) -> String? {
    guard let totalDeadline, elapsed > totalDeadline else { return nil }
    return "the next attempt could not start within \(totalDeadline)"
  }

  /// The wait before retry `retry` (from 1), given a draw in `[0, 1)` from
  /// the jitter source (anything else is brought into it). Negative
  /// durations count as zero.
  public func wait(beforeRetry retry: Int, draw: Double) -> Duration {
    let first = max(backoff, .zero)
    let most = maxBackoff.map { max($0, .zero) }
    var wait = first
    var doublings = 1
    // Doubling stops at the cap (or once it stops growing), so a large retry count cannot overflow.
    while doublings < retry && wait > .zero && (most.map { wait < $0 } ?? (wait < .seconds(1 << 40))) {
      wait *= 2
      doublings += 1
    }
    if let most { wait = min(wait, most) }
    // `jitter` is brought into range here too: it is a var, set past `init`'s clamp.
    return wait + first * (Self.fraction(jitter, below: 1) * Self.fraction(draw, below: 0.999_999))
  }

  /// `value` brought into `0...most`; NaN is 0.
  private static func fraction(_ value: Double, below most: Double) -> Double {
    value.isNaN ? 0 : min(max(value, 0), most)
  }
}

/// An attempt that ran past its deadline.
public struct DeadlineExceeded: Error, Sendable, CustomStringConvertible {
  /// The deadline it had.
  public let deadline: Duration

  public var description: String { "no answer within \(deadline)" }
}

/// Runs `operation`, giving up with `DeadlineExceeded` when `clock` passes
/// `deadline` first. The operation is cancelled then, but not waited for: an
/// operation that ignores cancellation (a blocking call) runs on, unheard,
/// and the caller goes on at its deadline. Cancelling the caller cancels both.
func withDeadline<Value: Sendable>(
  _ deadline: Duration, on clock: any Clock<Duration>, _ operation: @escaping @Sendable () async throws -> Value
) async throws -> Value {
  let first = FirstAnswer<Value>()
  return try await withTaskCancellationHandler {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
      first.wait(with: continuation)
      // Cancelled already: the operation is never started.
      if first.answered { return }
      let work = Task {
        do { first.answer(.success(try await operation())) } catch { first.answer(.failure(error)) }
      }
      let timer = Task {
        do { try await clock.sleep(for: deadline) } catch { return }
        first.answer(.failure(DeadlineExceeded(deadline: deadline)))
      }
      first.whenAnswered {
        work.cancel()
        timer.cancel()
      }
    }
  } onCancel: {
    first.answer(.failure(CancellationError()))
  }
}

/// The first of several answers to one continuation: the rest are dropped.
private final class FirstAnswer<Value: Sendable>: Sendable {
  private struct State {
    var continuation: CheckedContinuation<Value, any Error>?
    var answer: Result<Value, any Error>?
    var cleanUp: (@Sendable () -> Void)?
  }
  private let state = Mutex(State())

  /// Whether an answer has come.
  var answered: Bool { state.withLock { $0.answer != nil } }

  /// Sets the continuation the first answer resumes (at once, when one came already).
  func wait(with continuation: CheckedContinuation<Value, any Error>) {
    let ready = state.withLock { state -> Result<Value, any Error>? in
      if let answer = state.answer { return answer }
      state.continuation = continuation
      return nil
    }
    if let ready { continuation.resume(with: ready) }
  }

  /// Runs `cleanUp` once an answer has come (at once, when one has).
  func whenAnswered(_ cleanUp: @escaping @Sendable () -> Void) {
    let now = state.withLock { state -> Bool in
      if state.answer != nil { return true }
      state.cleanUp = cleanUp
      return false
    }
    if now { cleanUp() }
  }

  /// Resumes the continuation with `result` if no answer came before.
  func answer(_ result: Result<Value, any Error>) {
    typealias Waiting = (continuation: CheckedContinuation<Value, any Error>?, cleanUp: (@Sendable () -> Void)?)
    let waiting = state.withLock { state -> Waiting in
      guard state.answer == nil else { return (nil, nil) }
      state.answer = result
      defer {
        state.continuation = nil
        state.cleanUp = nil
      }
      return (state.continuation, state.cleanUp)
    }
    waiting.continuation?.resume(with: result)
    waiting.cleanUp?()
  }
}
