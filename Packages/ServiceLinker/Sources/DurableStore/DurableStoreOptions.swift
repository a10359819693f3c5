import FeatureKit

/// How a durable store keeps its journal: when it checkpoints, how long it
/// waits for the journal's lock, where tests stop it, and where retries draw
/// their jitter.
public struct DurableStoreOptions: Sendable {
  /// A checkpoint is written once the journal has grown this many bytes past the last one.
  public var checkpointBytes: Int
  /// A checkpoint is also written once this many records follow the last
  /// one, and at least as many bytes of them as that checkpoint had (so
  /// checkpoints cost at most about as much again as the records they
  /// follow, whatever the state's size); nil for none but `checkpointBytes`.
  public var checkpointRecords: Int?
  /// A checkpoint is also due once opening replayed this many records, and
  /// at least as many bytes of them as the last checkpoint had: written by
  /// the next `checkpointIfDue()` (or after the next step). For an app that
  /// runs each command in a process of its own, each of which replays what
  /// follows the last checkpoint, so that none replays many more than this,
  /// while a process that stays open keeps to `checkpointRecords`. Nil (the
  /// default) for none.
  public var checkpointRecordsReplayed: Int?
  /// Whether the store writes a due checkpoint right after the step that
  /// made it due (the default), or only when the app asks
  /// (`DurableStore.checkpointIfDue()`), as before its next command.
  public var checkpointsAfterSteps = true
  /// How long opening waits for another process to release the journal.
  public var lockWait: Duration
  /// Called at each `CrashPoint`; a seam that throws stops the store there.
  /// Nil in production.
  public var crashSeam: (@Sendable (CrashPoint) throws(SimulatedCrash) -> Void)?
  /// Where retries draw their jitter (`EffectPolicy.jitter`), in `[0, 1)`:
  /// the system's generator by default, a fixed value in tests.
  public var jitter: @Sendable () -> Double
  /// How this store runs its requests, when not as the feature says
  /// (`DurableFeature.effectPolicy`): an app's configuration (a deadline set
  /// by its user) applies to one store.
  public var effectPolicy: EffectPolicy?

  /// Options: a checkpoint every MiB, a two-second lock wait, no seam, random
  /// jitter, the feature's effect policy.
  public init(
    checkpointBytes: Int = 1 << 20, lockWait: Duration = .seconds(2),
    crashSeam: (@Sendable (CrashPoint) throws(SimulatedCrash) -> Void)? = nil,
    jitter: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }, effectPolicy: EffectPolicy? = nil
  ) {
    self.checkpointBytes = checkpointBytes
    self.lockWait = lockWait
    self.crashSeam = crashSeam
    self.jitter = jitter
    self.effectPolicy = effectPolicy
  }
}

/// One step a durable store journaled and ran.
public struct DurableStep<Model: DurableFeature> {
  /// The action stepped; nil for an outcome that fed nothing back.
  public let action: Model.Action?
  /// What the step did; nil when no action was stepped.
  public let result: StepResult<Model.Effect, Model.Outcome>?
  /// The intents it opened.
  public let intents: [Intent<Model.Request>]
  /// The journal's sequence number of its record.
  public let sequence: UInt64

  /// A step.
  @inlinable init(
    action: Model.Action?, result: StepResult<Model.Effect, Model.Outcome>?, intents: [Intent<Model.Request>],
    sequence: UInt64
  ) {
    self.action = action
    self.result = result
    self.intents = intents
    self.sequence = sequence
  }
}

/// How an intent closed, as `DurableStore.outcome(of:)` reports it, or why
/// it was left open unanswered (`EffectPolicy.leavesUnansweredOpen`).
public struct IntentClosed<Model: DurableFeature>: Sendable {
  /// Why the request was given up; nil when its service performed it.
  public let abandoned: String?
  /// What the outcome's step did; nil when it fed nothing back.
  public let outcome: Model.Outcome?
  /// Why the request was left open: its service gave no answer. Nil when
  /// the intent closed; else nothing was journaled, and the next open asks again.
  public let unanswered: Unanswered?

  /// How an intent closed, or why it was left open.
  init(abandoned: String?, outcome: Model.Outcome?, unanswered: Unanswered? = nil) {
    self.abandoned = abandoned
    self.outcome = outcome
    self.unanswered = unanswered
  }
}

/// A request left open because its service answered nothing (`EffectPolicy.leavesUnansweredOpen`).
public struct Unanswered: Error, Equatable, Sendable, CustomStringConvertible {
  /// How many times this process asked the service to perform it.
  public let attempts: Int
  /// What went unanswered.
  public let reason: String

  public var description: String { reason }
}
