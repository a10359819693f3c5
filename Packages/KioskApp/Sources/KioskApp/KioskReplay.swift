import Journal
import KioskCommands
import Menu
import Stock
import Tabs

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Rebuilds state from journal records: the only way state is ever loaded.
public enum KioskReplay {

  /// What replay carries from one record to the next besides the slices.
  public struct Progress: Sendable {
    /// What `undo` can revert.
    /// (Set by each initializer, not by a default: the till's step hands its
    /// own in, and a default would make a history only to drop it.)
    public var history: UndoHistory
    /// Set by a `dayClosed` record; nothing may follow it.
    public var closedDay: (day: Int, archive: String)?
    /// When not nil, the settled-tabs entries the records replayed make, in
    /// order (what a writer appends to the day's file after its checkpoint).
    public var settledTabs: [SettledTabsEntry]?
    /// The till's name in its chain, as the last checkpoint carried it and a
    /// `tillNamed` record since set it; nil while the till has none.
    public var till: String?

    /// Nothing replayed yet.
    public init() { history = UndoHistory() }

    /// Carrying on with `history` (moved in, so a push changes it in place) for the till named `till`.
    init(history: consuming UndoHistory, till: String?) {
      self.history = history
      self.till = till
    }

    /// Carrying on from a checkpoint.
    public init(checkpoint: KioskCheckpoint) {
      history = UndoHistory(entries: checkpoint.undo)
      till = checkpoint.till
    }
  }

  /// Applies one record, numbered `sequence` in its journal, to `world`.
  /// Returns the history entry an `undone` record reverted.
  @discardableResult
  public static func apply<World: KioskSnapshotSlices & ~Copyable>(
    _ record: KioskRecord, sequence: Int, to world: inout World, progress: inout Progress
  ) throws(ReplayError) -> UndoHistory.Entry? {
    do {
      if let closed = progress.closedDay {
        throw ReplayFailure("day \(closed.day) was closed by an earlier record; nothing may follow it")
      }
      switch record {
      case .initialized:
        guard sequence == 1 else { throw ReplayFailure("the menu and stock are initialized only by the first record") }
        try world.apply(record)
      case .undone:
        guard let entry = progress.history.pop() else { throw ReplayFailure("nothing to undo") }
        world.revert(entry.step)
        if progress.settledTabs != nil, let made = SettledTabsEntry.undoing(entry) {
          progress.settledTabs!.append(made)
        }
        return entry
      case .dayClosed(let day, let archive):
        guard sequence > 1 else { throw ReplayFailure("the first record must initialize the menu and stock") }
        progress.closedDay = (day, archive)
      case .paymentIntent, .paymentAbandoned:
        guard sequence > 1 else { throw ReplayFailure("the first record must initialize the menu and stock") }
      case .tillNamed(let till):
        guard sequence > 1 else { throw ReplayFailure("the first record must initialize the menu and stock") }
        progress.till = till
      default:
        guard sequence > 1 else { throw ReplayFailure("the first record must initialize the menu and stock") }
        // The inverse comes from the world before the record, exactly as live.
        let step = try UndoStep.before(record, in: world)
        try world.apply(record)
        if let step {
          let entry = UndoHistory.Entry(record: record, step: step)
          progress.history.push(entry)
          if progress.settledTabs != nil, let made = SettledTabsEntry.made(by: entry) {
            progress.settledTabs!.append(made)
          }
        }
      }
    } catch let failure as ReplayFailure {
      throw ReplayError(sequence: sequence, reason: failure.description)
    } catch {
      throw ReplayError(sequence: sequence, reason: "\(error)")
    }
    return nil
  }

  /// Applies `records` (a whole journal, from record 1) to `world` in order
  /// and returns the undo history they leave.
  public static func replay<World: KioskSnapshotSlices & ~Copyable>(
    _ records: [KioskRecord], into world: inout World
  ) throws(ReplayError) -> UndoHistory {
    var progress = Progress()
    for (index, record) in records.enumerated() {
      try apply(record, sequence: index + 1, to: &world, progress: &progress)
    }
    return progress.history
  }

  /// Restores `contents.checkpoint` into `world`, when there is one, then
  /// applies the records after it; with `collectingSettledTabs`, the
  /// progress lists the settled-tabs entries those records make.
  public static func replay<World: KioskSnapshotSlices & ~Copyable>(
    _ contents: JournalContents, into world: inout World, collectingSettledTabs: Bool = false
  ) throws(ReplayError) -> Progress {
    var progress = Progress()
    if let checkpoint = contents.checkpoint {
      world.restore(checkpoint.state)
      progress = Progress(checkpoint: checkpoint)
    }
    if collectingSettledTabs { progress.settledTabs = [] }
    for (index, record) in contents.records.enumerated() {
      try apply(record, sequence: contents.firstSequence + index, to: &world, progress: &progress)
    }
    return progress
  }

  /// Decodes a journal as opened: its last checkpoint, when it read one, and the records after it.
  public static func contents(of recovery: JournalRecovery) throws(JournalError) -> JournalContents {
    guard let start = recovery.lastCheckpoint else {
      return JournalContents(
        checkpoint: nil, records: try recovery.decodedEntries(as: KioskRecord.self),
        firstSequence: Int(recovery.firstSequence))
    }
    let checkpoint = try recovery.decodedEntry(start, as: KioskCheckpoint.self)
    return JournalContents(
      checkpoint: checkpoint, records: try recovery.decodedEntries(as: KioskRecord.self, from: start + 1),
      firstSequence: Int(recovery.sequence(start)) + 1)
  }

  /// What `verify` reports.
  public struct Verification: Equatable, Sendable {
    /// Records replayed.
    public var recordCount: Int
    /// The replayed state's digest.
    public var digest: String
    /// Whether two replays from scratch gave byte-identical canonical snapshots.
    public var isDeterministic: Bool
  }

  /// Replays `records` twice into fresh worlds and compares the canonical bytes.
  public static func verify(_ records: [KioskRecord]) throws(ReplayError) -> Verification {
    var first = ReplayWorld()
    _ = try replay(records, into: &first)
    var second = ReplayWorld()
    _ = try replay(records, into: &second)
    let bytes = first.snapshot.canonicalJSONWrittenByHand()
    return Verification(
      recordCount: records.count, digest: first.snapshot.digest,
      isDeterministic: bytes == second.snapshot.canonicalJSONWrittenByHand())
  }
}

/// A journal as opened: its last checkpoint (nil when it has none) and the
/// records after it.
public struct JournalContents: Sendable {
  /// Where replay starts.
  public var checkpoint: KioskCheckpoint?
  /// The records after the checkpoint (every record, when there is none).
  public var records: [KioskRecord]
  /// The sequence number of `records[0]`.
  public var firstSequence: Int

  /// The intents without an outcome at the end.
  public var openIntents: [PaymentIntent] {
    KioskRecord.openIntents(in: records, openBefore: checkpoint?.openIntents ?? [])
  }

  /// Whether any payment was ever journaled.
  public var paymentsJournaled: Bool {
    checkpoint?.paymentsJournaled == true
      || records.contains { if case .paymentIntent = $0 { true } else { false } }
  }

  /// The day the journal covers.
  public var day: Int { checkpoint?.day ?? 1 }
}
