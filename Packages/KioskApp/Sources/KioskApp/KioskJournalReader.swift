import Foundation
import Journal

/// Reads a journal file as decoded entries, oldest first, in bounded memory
/// (`history`, `verify`, the payment audit and the Z report stream it).
public enum KioskJournalReader {
  /// One decoded record of a journal file.
  public enum Entry: Sendable {
    /// A checkpoint: the whole state at that point.
    case checkpoint(KioskCheckpoint)
    /// A command, or an outcome.
    case record(KioskRecord)
  }

  /// Hands every record of the file at `path` to `body` with its sequence
  /// number. A reader: no lock, no write. `progress` gets bytes read and the total.
  @discardableResult
  public static func walk(
    path: String, progress: ((Int, Int) -> Void)? = nil, _ body: (Int, Entry) throws -> Void
  ) throws -> StreamSummary {
    let decoder = JSONDecoder()
    return try DurableJournal.stream(path: path, progress: progress) { record in
      let data = Data(record.payload)
      let entry: Entry
      do {
        entry =
          record.isCheckpoint
          ? .checkpoint(try decoder.decode(KioskCheckpoint.self, from: data))
          : .record(try decoder.decode(KioskRecord.self, from: data))
      } catch {
        throw JournalError.codec("record \(record.sequence) of '\(path)': \(error)")
      }
      try body(Int(record.sequence), entry)
    }
  }

  /// Every record about money in every day's file (intents, keyed settles,
  /// undos, abandonments), oldest first: what the payment audit compares with
  /// the processor's ledger, which spans days. Its size grows with the
  /// payments ever made, as the ledger's does; settles journaled before keys
  /// existed are left out, since no ledger can confirm them.
  public static func paymentRecords(of journal: String, progress: ((Int, Int) -> Void)? = nil) throws
    -> [KioskRecord]
  {
    var records: [KioskRecord] = []
    for segment in KioskSegments.all(of: journal) {
      try walk(path: segment.path, progress: progress) { _, entry in
        guard case .record(let record) = entry else { return }
        switch record {
        case .settled(let receipt) where receipt.key == nil: break
        case .undone(_, nil): break
        case .paymentIntent, .paymentAbandoned, .settled, .undone: records.append(record)
        default: break
        }
      }
    }
    return records
  }
}
