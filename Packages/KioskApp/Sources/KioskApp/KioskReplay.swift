import Journal
import Menu
import Stock
import Tabs

/// Rebuilds state from journal records: the only way state is ever loaded.
public enum KioskReplay {

  /// Applies `records` to `world` in order and returns the undo history they leave.
  public static func replay<World: HasMutableTabs & HasMutableMenu & HasMutableStock & ~Copyable>(
    _ records: [KioskRecord], into world: inout World
  ) throws(ReplayError) -> UndoHistory {
    var history = UndoHistory()
    for (index, record) in records.enumerated() {
      let sequence = index + 1
      do {
        switch record {
        case .initialized:
          guard index == 0 else { throw ReplayFailure("the menu and stock are initialized only by the first record") }
          try world.apply(record)
        case .undone:
          guard let entry = history.pop() else { throw ReplayFailure("nothing to undo") }
          world.revert(entry.step)
        case .paymentIntent, .paymentAbandoned:
          guard index > 0 else { throw ReplayFailure("the first record must initialize the menu and stock") }
        default:
          guard index > 0 else { throw ReplayFailure("the first record must initialize the menu and stock") }
          // The inverse comes from the world before the record, exactly as live.
          let step = try UndoStep.before(record, in: world)
          try world.apply(record)
          if let step { history.push(UndoHistory.Entry(record: record, step: step)) }
        }
      } catch let failure as ReplayFailure {
        throw ReplayError(sequence: sequence, reason: failure.description)
      } catch {
        throw ReplayError(sequence: sequence, reason: "\(error)")
      }
    }
    return history
  }

  /// Decodes every recovered record of a journal.
  public static func records(of journal: borrowing DurableJournal) throws(JournalError) -> [KioskRecord] {
    try journal.recoveredEntries(as: KioskRecord.self)
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
    let bytes = first.snapshot.canonicalJSON()
    return Verification(
      recordCount: records.count, digest: first.snapshot.digest,
      isDeterministic: bytes == second.snapshot.canonicalJSON())
  }
}
