import FeatureKit

/// How a durable store keeps its journal: when it checkpoints, how long it
/// waits for the journal's lock, where tests stop it, and where retries draw
/// their jitter.
public struct DurableStoreOptions: Sendable {
  /// A checkpoint is written once the journal has grown this many bytes past the last one.
  public var checkpointBytes: Int
  /// How long opening waits for another process to release the journal.
  public var lockWait: Duration
  /// Called at each `CrashPoint`; a seam that throws stops the store there.
  /// Nil in production.
  public var crashSeam: (@Sendable (CrashPoint) throws(SimulatedCrash) -> Void)?
  /// Where retries draw their jitter (`EffectPolicy.jitter`), in `[0, 1)`:
  /// the system's generator by default, a fixed value in tests.
  public var jitter: @Sendable () -> Double

  /// Options: a checkpoint every MiB, a two-second lock wait, no seam, random jitter.
  public init(
    checkpointBytes: Int = 1 << 20, lockWait: Duration = .seconds(2),
    crashSeam: (@Sendable (CrashPoint) throws(SimulatedCrash) -> Void)? = nil,
    jitter: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
  ) {
    self.checkpointBytes = checkpointBytes
    self.lockWait = lockWait
    self.crashSeam = crashSeam
    self.jitter = jitter
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

/// How an intent closed, as `DurableStore.outcome(of:)` reports it.
public struct IntentClosed<Model: DurableFeature>: Sendable {
  /// Why the request was given up; nil when its service performed it.
  public let abandoned: String?
  /// What the outcome's step did; nil when it fed nothing back.
  public let outcome: Model.Outcome?
}
