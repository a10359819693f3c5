import FeatureKit

/// How an intent closed: the action its outcome steps, and why it was given up, if it was.
struct IntentClosing<Model: DurableFeature>: Sendable {
  /// What the outcome feeds back into the step (nil for nothing).
  var action: Model.Action?
  /// Why the request was given up; nil when it was performed.
  var abandoned: String?
}

/// A crash seam stopped an intent's run at `point`.
struct StoppedAtSeam: Error {
  let point: CrashPoint
}

/// Performs one intent under `DurableFeature.effectPolicy`, off the main actor.
enum IntentRunner<Model: DurableFeature> {
  /// Performs `intent` until it is done or given up: each attempt bounded by
  /// the policy's deadline; after a failed attempt (and first of all when
  /// `recovering`), the service is asked what became of it, and it is
  /// performed again only if it never got there (asked before the first
  /// attempt too with the policy's `reconcileFirst`). A failure the feature calls
  /// final gives it up at once; so does a next attempt that could not start
  /// within the policy's total deadline. `jitter` draws each wait's jitter.
  static func settle(
    _ intent: Intent<Model.Request>, recovering: Bool, environment: Model.Environment, clock: any Clock<Duration>,
    jitter: @Sendable () -> Double, seam: (@Sendable (CrashPoint) throws(SimulatedCrash) -> Void)?
  ) async throws -> IntentClosing<Model> {
    let policy = Model.effectPolicy
    let request = intent.request
    let key = intent.key
    let elapsed = stopwatch(on: clock)
    var wait = policy.wait(beforeRetry: 1, draw: jitter())
    var askFirst = recovering || policy.reconcileFirst
    var failure = "no attempt was made"
    var made = 0
    for attempt in 1...policy.attempts {
      try Task.checkCancellation()
      if attempt > 1 {
        if let total = policy.totalDeadline, elapsed() + wait > total {
          failure += "; the next attempt could not start within \(total)"
          break
        }
        try await clock.sleep(for: wait)
        wait = policy.wait(beforeRetry: attempt, draw: jitter())
      }
      if askFirst {
        do {
          let answer = try await withDeadline(policy.deadline, on: clock) {
            try await Model.reconcile(request, key: key, environment: environment)
          }
          switch answer {
          case .completed(let action): return IntentClosing(action: action, abandoned: nil)
          case .abandon(let reason):
            return IntentClosing(action: Model.abandoned(request, reason: reason), abandoned: reason)
          case .notPerformed: break
          }
        } catch {
          try Task.checkCancellation()
          failure = "its service could not say what became of it: \(error)"
          continue
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
        if let reason = Model.finalFailure(error) {
          // The service said no: nothing moved, so there is nothing to ask about or retry.
          return IntentClosing(action: Model.abandoned(request, reason: reason), abandoned: reason)
        }
        failure = "\(error)"
        askFirst = true
      }
    }
    if askFirst {
      // The last attempt may have reached the service before its answer was
      // lost: ask once more, after the wait, before giving the request up.
      try await clock.sleep(for: wait)
      let answer = try? await withDeadline(policy.deadline, on: clock) {
        try await Model.reconcile(request, key: key, environment: environment)
      }
      try Task.checkCancellation()
      switch answer {
      case .completed(let action): return IntentClosing(action: action, abandoned: nil)
      case .abandon(let reason):
        return IntentClosing(action: Model.abandoned(request, reason: reason), abandoned: reason)
      case .notPerformed, nil: break
      }
    }
    let reason = "given up after \(made) attempt(s): \(failure)"
    return IntentClosing(action: Model.abandoned(request, reason: reason), abandoned: reason)
  }
}

/// The time `clock` has moved since the call, for a clock seen only as `any Clock`.
func stopwatch<C: Clock<Duration>>(on clock: C) -> @Sendable () -> Duration {
  let start = clock.now
  return { start.duration(to: clock.now) }
}
