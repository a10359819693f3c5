import FeatureKit
import Journal

/// How a durable store writes its journal's records and checkpoints, and
/// reads them back: `CanonicalDurableFormat` (canonical JSON) unless the
/// feature names another (`DurableFeature.Format`), as an app with journals
/// of its own older form does.
///
/// Replay reads each record back and steps it again with the live store's
/// code, so a format need only keep what `read` must give back: the kind,
/// the action and the intents. It must read back what it wrote, exactly,
/// but for the action of an outcome given up, which it may leave out: replay
/// steps what the feature's `abandoned(_:reason:)` says for the intent again.
///
/// Each record and checkpoint is written and read in the form of its
/// journal's version (the journal's header keeps it): a format that changed
/// its form keeps writing the old one in a journal begun before, and a new
/// journal, or a period's next, gets `newJournalVersion`. The store refuses
/// to open a journal whose version is not in `versions`, and leaves it as it is.
public protocol DurableFormat {
  /// The feature whose journal this is.
  associatedtype Model: DurableFeature

  /// The journal versions whose records and checkpoints this format reads
  /// and writes (of `JournalFormat.readableVersions`).
  static var versions: ClosedRange<UInt16> { get }

  /// The version of a journal the store creates: a new one, or a period's
  /// next unless `nextPeriodVersion(opening:)` says otherwise.
  static var newJournalVersion: UInt16 { get }

  /// The version of the next period's journal, given its opening checkpoint:
  /// `newJournalVersion` by default; an older one when the newest form cannot
  /// hold what the period carries over (an amount its form has no room for).
  static func nextPeriodVersion(opening checkpoint: DurableCheckpoint<Model>) -> UInt16

  /// The files beside a journal that are derived from it, as suffixes of its
  /// path (`".settled"` for `<journal>.settled`): closing a period moves each
  /// to its archive's name with the same suffix, as the store's checkpoint
  /// index goes, so the archive keeps what was derived from it and the next
  /// period starts without. None by default.
  static var companionSuffixes: [String] { get }

  /// Whether a period's end is journaled after a checkpoint of its last
  /// state, so a reader of its archive replays nothing (the default), or
  /// right after its last step, as a format whose journals never had one
  /// there keeps them.
  static var checkpointsPeriodEnd: Bool { get }

  /// Appends the record of one step to `out`, after the bytes already there
  /// (the journal's frame, which it must leave as it is): what made it, the action stepped (nil for an
  /// outcome that feeds nothing back), the intents it opened, and what the
  /// step did (nil when there was no action), for a format that keeps it;
  /// in the form of a journal of `version`.
  static func writeRecord(
    _ kind: DurableStepKind, _ action: Model.Action?, _ intents: [Intent<Model.Request>],
    result: StepResult<Model.Effect, Model.Outcome>?, version: UInt16, to out: inout [UInt8])

  /// A record read back from its payload in a journal of `version`; throws when it is not one.
  static func readRecord(_ payload: ArraySlice<UInt8>, version: UInt16) throws -> DurableRecord<Model>

  /// A checkpoint's payload, for a journal of `version`.
  static func writeCheckpoint(_ checkpoint: DurableCheckpoint<Model>, version: UInt16) -> [UInt8]

  /// A checkpoint read back from its payload in a journal of `version`; throws when it is not one.
  static func readCheckpoint(_ payload: ArraySlice<UInt8>, version: UInt16) throws -> DurableCheckpoint<Model>
}

extension DurableFormat {
  /// The newest journal version only: that of canonical payloads.
  public static var versions: ClosedRange<UInt16> { JournalFormat.canonicalVersion...JournalFormat.canonicalVersion }

  /// The newest version this format writes.
  public static var newJournalVersion: UInt16 { versions.upperBound }

  /// A new journal's version.
  public static func nextPeriodVersion(opening checkpoint: DurableCheckpoint<Model>) -> UInt16 { newJournalVersion }

  /// No file is derived from the journal.
  public static var companionSuffixes: [String] { [] }

  /// A period's end follows a checkpoint.
  public static var checkpointsPeriodEnd: Bool { true }
}
