import FeatureKit

/// How an intent closed: the action its outcome steps, and why it was given up, if it was.
struct IntentClosing<Model: DurableFeature>: Sendable {
  /// What the outcome feeds back into the step (nil for nothing).
  var action: Model.Action?
  /// Why the request was given up; nil when it was performed.
  var abandoned: String?

  /// `request` given up for `reason`: the feature's `abandoned` action is fed back.
  static func abandoning(_ request: Model.Request, reason: String) -> IntentClosing {
    IntentClosing(action: Model.abandoned(request, reason: reason), abandoned: reason)
  }
}

/// A crash seam stopped an intent's run at `point`.
struct StoppedAtSeam: Error {
  let point: CrashPoint
}

/// Performs one intent under the store's effect policy (`DurableFeature.effectPolicy` unless the options name one), off the main actor.
enum IntentRunner<Model: DurableFeature> {
  /// Performs `intent` until it is done or given up: each attempt bounded by
  /// the policy's deadline; after a failed attempt (and first of all when
  /// `recovering`, or with the policy's `reconcileFirst`), the service is
  /// asked what became of it, and it is performed again only if it never got
  /// there. A failure the feature calls final gives the request up at once
  /// when it answered the only attempt; after an attempt whose fate is
  /// unknown, the service is asked once more first. No attempt starts later
  /// than the policy's total deadline after the first (in this process).
  /// `jitter` draws each wait's jitter.
  static func settle(
    _ intent: Intent<Model.Request>, recovering: Bool, policy: EffectPolicy, environment: Model.Environment,
    clock: any Clock<Duration>, jitter: @Sendable () -> Double,
    seam: (@Sendable (CrashPoint) throws(SimulatedCrash) -> Void)?
  ) async throws -> IntentClosing<Model> {
    let request = intent.request
    let key = intent.key
    let elapsed = stopwatch(on: clock)
    var wait = policy.wait(beforeRetry: 1, draw: jitter())
    var askFirst = recovering || policy.reconcileFirst
    // Whether an attempt before (in this process or one that crashed) may
    // still reach the service: a refusal now does not prove nothing moved.
    var uncertain = recovering
    var failure = "no attempt was made"
    var refusal: String?
    var made = 0
    for attempt in 1...policy.attempts {
      try Task.checkCancellation()
      if attempt > 1 {
        if let missed = policy.missedTotalDeadline(at: elapsed() + wait) {
          failure += "; \(missed)"
          break
        }
        try await clock.sleep(for: wait)
        wait = policy.wait(beforeRetry: attempt, draw: jitter())
      }
      if askFirst {
        switch try await ask(request, key: key, deadline: policy.deadline, environment: environment, clock: clock) {
        case .answered(let closing): return closing
        case .notPerformed:
          if recovering, made == 0, !policy.performAfterRestart {
            return .abandoning(request, reason: Self.notPerformedBeforeRestart)
          }
        case .unknown(let reason):
          failure = reason
          continue
        }
        if attempt > 1, let missed = policy.missedTotalDeadline(at: elapsed()) {
          failure += "; \(missed)"
          break
        }
      }
      do { try seam?(.beforePerform(key)) } catch { throw StoppedAtSeam(point: .beforePerform(key)) }
      made += 1
      do {
        let action = try await withDeadline(policy.deadline, on: clock) {
          try await Model.perform(request, key: key, environment: environment)
        }
        do { try seam?(.afterPerform(key)) } catch { throw StoppedAtSeam(point: .afterPerform(key)) }
        return IntentClosing(action: action, abandoned: nil)
      } catch let stopped as StoppedAtSeam {
        throw stopped
      } catch {
        try Task.checkCancellation()
        // A deadline is never a refusal: the attempt may still go through.
        let final = error is DeadlineExceeded ? nil : Model.finalFailure(error)
        if let final, !uncertain {
          // The service said no to the only attempt: nothing moved, so there is nothing to ask about or retry.
          return .abandoning(request, reason: final)
        }
        uncertain = true
        askFirst = true
        failure = final ?? "\(error)"
        if let final {
          refusal = final
          break
        }
      }
    }
    if askFirst {
      // The last attempt may have reached the service before its answer was
      // lost: ask once more, after the wait (within the total deadline),
      // before giving the request up.
      var last = wait
      if let total = policy.totalDeadline { last = min(last, max(total - elapsed(), .zero)) }
      try await clock.sleep(for: last)
      switch try await ask(request, key: key, deadline: policy.deadline, environment: environment, clock: clock) {
      case .answered(let closing): return closing
      case .unknown(let reason) where policy.leavesUnansweredOpen && refusal == nil:
        throw Unanswered(
          attempts: made, reason: "no answer after \(made) attempt(s): \(failure); asked after: \(reason)")
      case .notPerformed where policy.leavesUnansweredOpen && refusal == nil && made > 0:
        // An attempt that got no answer may still reach the service: "not yet" is no proof it never will.
        throw Unanswered(
          attempts: made, reason: "no answer after \(made) attempt(s): \(failure); its service has no record of it yet")
      case .notPerformed, .unknown: break
      }
    }
    return .abandoning(request, reason: refusal ?? "given up after \(made) attempt(s): \(failure)")
  }

  /// Why a request its service never got is given up on opening, under a
  /// policy that does not perform it after a restart.
  static var notPerformedBeforeRestart: String {
    "its service has no record of it: it was never performed before the process ended, and is not performed now"
  }

  /// What asking the service about a request told.
  enum Answer {
    /// It closed the intent: completed, or to be abandoned.
    case answered(IntentClosing<Model>)
    /// The service never got it.
    case notPerformed
    /// The service could not say (`reason`).
    case unknown(String)
  }

  /// Asks the service what became of `request` under `key`, within the policy's deadline.
  static func ask(
    _ request: Model.Request, key: IntentKey, deadline: Duration, environment: Model.Environment,
    clock: any Clock<Duration>
  ) async throws -> Answer {
    do {
      let answer = try await withDeadline(deadline, on: clock) {
        try await Model.reconcile(request, key: key, environment: environment)
      }
      switch answer {
      case .completed(let action): return .answered(IntentClosing(action: action, abandoned: nil))
      case .abandon(let reason): return .answered(.abandoning(request, reason: reason))
      case .notPerformed: return .notPerformed
      }
    } catch {
      try Task.checkCancellation()
      return .unknown("its service could not say what became of it: \(error)")
    }
  }
}

/// The time `clock` has moved since the call, for a clock seen only as `any Clock`.
func stopwatch<C: Clock<Duration>>(on clock: C) -> @Sendable () -> Duration {
  let start = clock.now
  return { start.duration(to: clock.now) }
}
