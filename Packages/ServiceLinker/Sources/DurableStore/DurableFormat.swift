import FeatureKit

/// How a durable store writes its journal's records and checkpoints, and
/// reads them back: `CanonicalDurableFormat` (canonical JSON) unless the
/// feature names another (`DurableFeature.Format`), as an app with journals
/// of its own older form does.
///
/// Replay reads each record back and steps it again with the live store's
/// code, so a format need only keep what `read` must give back: the kind,
/// the action and the intents. It must read back what it wrote, exactly.
public protocol DurableFormat {
  /// The feature whose journal this is.
  associatedtype Model: DurableFeature

  /// Appends the record of one step to `out`, after the bytes already there
  /// (the journal's frame, which it must leave as it is): what made it, the action stepped (nil for an
  /// outcome that feeds nothing back), the intents it opened, and what the
  /// step did (nil when there was no action), for a format that keeps it.
  static func writeRecord(
    _ kind: DurableStepKind, _ action: Model.Action?, _ intents: [Intent<Model.Request>],
    result: StepResult<Model.Effect, Model.Outcome>?, to out: inout [UInt8])

  /// A record read back from its payload; throws when it is not one.
  static func readRecord(_ payload: ArraySlice<UInt8>) throws -> DurableRecord<Model>

  /// A checkpoint's payload.
  static func writeCheckpoint(_ checkpoint: DurableCheckpoint<Model>) -> [UInt8]

  /// A checkpoint read back from its payload; throws when it is not one.
  static func readCheckpoint(_ payload: ArraySlice<UInt8>) throws -> DurableCheckpoint<Model>
}
