import Journal
import KioskCommands
import Payment
import Tabs

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Reads a journal file as decoded entries, oldest first, in bounded memory
/// (`history`, `verify`, the payment audit and the Z report stream it).
public enum KioskJournalReader {
  /// One decoded record of a journal file.
  public enum Entry: Sendable {
    /// A checkpoint: the whole state at that point.
    case checkpoint(KioskCheckpoint)
    /// A command, or an outcome.
    case record(KioskRecord)
    /// A placeholder `kiosk repair` wrote over a damaged record, and what that record was.
    case lost(LostRecord)
  }

  /// Hands every record of the file at `path` to `body` with its sequence
  /// number. A reader: no lock, no write. `progress` gets bytes read and the total.
  @discardableResult
  public static func walk(
    path: String, endingAt end: Int? = nil, progress: ((Int, Int) -> Void)? = nil, _ body: (Int, Entry) throws -> Void
  ) throws -> StreamSummary {
    do { return try stream(path: path, endingAt: end, progress: progress, body) } catch let error as JournalError {
      throw KioskDaysError.file(path: path, reason: error.description)
    }
  }

  /// The day the journal at `path` holds and the day before it says it
  /// continues, from its first record alone: a checkpoint names both; a
  /// journal that starts with a record is day 1. Nil when the file is
  /// missing, empty or its first record is lost.
  public static func opening(path: String) throws -> (day: Int, continues: ClosedDay?)? {
    struct Stop: Error {}
    var opening: (day: Int, continues: ClosedDay?)?
    do {
      try walk(path: path) { _, entry in
        switch entry {
        case .checkpoint(let checkpoint): opening = (checkpoint.day, checkpoint.previousDay)
        case .record: opening = (1, nil)
        case .lost: break
        }
        throw Stop()
      }
    } catch is Stop {}
    return opening
  }

  /// What `walkDays` hands over with each record.
  public struct Position: Sendable {
    /// The file.
    public var path: String
    /// The day it covers.
    public var day: Int
    /// The record's number in that file.
    public var sequence: Int
  }

  /// Walks the live journal, or with `all` every closed day's archive first,
  /// checking that the days follow one another from day 1 with none missing,
  /// that each archive is whole (it ends with its close), and that the live
  /// journal is the day after the last archive when it is read. Returns how
  /// many bytes at the end of the live journal were left unread. An archive
  /// set aside (`kiosk set-aside`) is not read: `setAside` gets its day.
  @discardableResult
  public static func walkDays(
    journal: String, all: Bool, liveEnd: Int? = nil, progress: ((Int, Int) -> Void)? = nil,
    setAside: (KioskSegments.Segment) throws -> Void = { _ in }, _ body: (Position, Entry) throws -> Void
  ) throws -> Int {
    let segments = all ? KioskSegments.all(of: journal) : [KioskSegments.Segment(day: nil, path: journal)]
    var unread = 0
    for (index, segment) in segments.enumerated() {
      let expected = index + 1
      if all, let day = segment.day, day != expected {
        throw KioskDaysError.missingArchive(day: expected, path: KioskSegments.archivePath(of: journal, day: expected))
      }
      if segment.setAside {
        try setAside(segment)
        continue
      }
      var day = expected
      var last: KioskRecord?
      // Archives are never written again; only the live day can grow while it is read.
      let end = segment.day == nil ? liveEnd : nil
      let summary = try readingArchive(segment) {
        try walk(path: segment.path, endingAt: end, progress: progress) { sequence, entry in
          if sequence == 1 {
            switch entry {
            case .checkpoint(let checkpoint): day = checkpoint.day
            // A day's lost opening checkpoint: the day is the one its place in the chain says.
            case .lost: day = expected
            case .record: day = 1
            }
            if all, day != expected {
              if segment.day == nil, day > expected {
                throw KioskDaysError.changedWhileReading(path: segment.path)
              }
              throw KioskDaysError.wrongDay(path: segment.path, holds: day, expected: expected)
            }
          }
          if case .record(let record) = entry { last = record }
          try body(Position(path: segment.path, day: day, sequence: sequence), entry)
        }
      }
      if segment.day != nil {
        guard summary.unreadTailBytes == 0, case .dayClosed(let closed, _) = last, closed == day else {
          throw KioskDaysError.damagedArchive(path: segment.path, unreadBytes: summary.unreadTailBytes)
        }
      } else {
        unread = summary.unreadTailBytes
      }
    }
    return unread
  }

  /// Runs `read` on `segment`; when it is an archive that cannot be read,
  /// says so with the way out (`KioskDaysError.unreadableArchive`).
  public static func readingArchive<Result>(_ segment: KioskSegments.Segment, _ read: () throws -> Result) throws
    -> Result
  {
    do { return try read() } catch KioskDaysError.file(let path, let reason) where segment.day != nil {
      throw KioskDaysError.unreadableArchive(
        path: path, day: segment.day!, reason: reason.replacing(JournalError.repairAdvice, with: ""))
    }
  }

  /// `walk`, handing each entry over with its record as the file holds it
  /// (type, version and payload bytes, valid during the call): what the head
  /// office keeps of a closed day, to give the file back byte for byte.
  public static func walkRecords(path: String, _ body: (Int, Entry, StreamedRecord) throws -> Void) throws
    -> StreamSummary
  {
    do { return try stream(path: path, endingAt: nil, progress: nil, body) } catch let error as JournalError {
      throw KioskDaysError.file(path: path, reason: error.description)
    }
  }

  private static func stream(
    path: String, endingAt end: Int?, progress: ((Int, Int) -> Void)?, _ body: (Int, Entry) throws -> Void
  ) throws -> StreamSummary {
    try stream(path: path, endingAt: end, progress: progress) { sequence, entry, _ in try body(sequence, entry) }
  }

  private static func stream(
    path: String, endingAt end: Int?, progress: ((Int, Int) -> Void)?,
    _ body: (Int, Entry, StreamedRecord) throws -> Void
  ) throws -> StreamSummary {
    let decoder = JSONDecoder()
    return try DurableJournal.stream(path: path, endingAt: end, progress: progress) { record in
      let entry: Entry
      do {
        if let lost = record.lost {
          entry = .lost(lost)
        } else if record.isCheckpoint {
          entry = .checkpoint(
            try KioskCheckpoint.decoded(from: Array(record.payload)[...], version: record.version, decoder: decoder))
        } else {
          entry = .record(
            try KioskRecord.decoded(from: Array(record.payload)[...], version: record.version, decoder: decoder))
        }
      } catch {
        throw JournalError.codec("record \(record.sequence) of '\(path)': \(JournalError.decoding(error))")
      }
      try body(Int(record.sequence), entry, record)
    }
  }

  /// Every record about money in every day's file, and the intents whose
  /// outcome was lost to damage but which a later checkpoint shows closed.
  public struct PaymentHistory: Sendable {
    /// Intents, keyed settles, undos and abandonments, oldest first; a settle
    /// whose record was lost to damage is taken from the next checkpoint's undo history.
    public var records: [KioskRecord] = []
    /// Intents with no outcome among `records` because the record holding it
    /// was lost to damage (`kiosk repair` left a placeholder), and which the
    /// next checkpoint no longer lists as open: they were resolved, and the
    /// processor's movement under their key, if any, is their outcome.
    public var closedByCheckpoint: [PaymentIntent] = []
  }

  /// Every record about money in every day's file (intents, keyed settles,
  /// undos, abandonments), oldest first: what the payment audit compares with
  /// the processor's ledger, which spans days. Its size grows with the
  /// payments ever made, as the ledger's does; settles journaled before keys
  /// existed are left out, since no ledger can confirm them.
  public static func paymentHistory(
    of journal: String, liveEnd: Int? = nil, progress: ((Int, Int) -> Void)? = nil
  ) throws -> PaymentHistory {
    var history = PaymentHistory()
    var unresolved: [PaymentIntent] = []
    var lostSinceCheckpoint = false
    try walkDays(journal: journal, all: true, liveEnd: liveEnd, progress: progress) { _, entry in
      switch entry {
      case .lost:
        lostSinceCheckpoint = true
      case .checkpoint(let checkpoint):
        if checkpoint.previousDay != nil {
          unresolved = []  // a new day: no intent crosses a close
        } else if lostSinceCheckpoint {
          let open = Set(checkpoint.openIntents.map(\.key))
          // A settle whose record was lost is still in the checkpoint's undo history, word for word.
          var receipts: [IdempotencyKey: Receipt] = [:]
          for entry in checkpoint.undo {
            if case .settled(let receipt) = entry.record, let key = receipt.key { receipts[key] = receipt }
          }
          for intent in unresolved where !open.contains(intent.key) {
            if let receipt = receipts[intent.key] {
              history.records.append(.settled(receipt))
            } else {
              history.closedByCheckpoint.append(intent)
            }
          }
          unresolved.removeAll { !open.contains($0.key) }
        }
        lostSinceCheckpoint = false
      case .record(let record):
        switch record {
        case .settled(let receipt) where receipt.key == nil: return
        case .undone(_, nil): return
        case .paymentIntent(let intent):
          unresolved.append(intent)
          history.records.append(record)
        case .paymentAbandoned, .settled, .undone:
          // An outcome closes the last intent journaled under its key: an earlier
          // one under the same key (a journal cut back reuses keys) whose own
          // outcome was lost stays for the next checkpoint to resolve.
          if let key = record.outcomeKey, let last = unresolved.lastIndex(where: { $0.key == key }) {
            unresolved.remove(at: last)
          }
          history.records.append(record)
        default: return
        }
      }
    }
    return history
  }

  /// The records of `paymentHistory`.
  public static func paymentRecords(
    of journal: String, liveEnd: Int? = nil, progress: ((Int, Int) -> Void)? = nil
  ) throws -> [KioskRecord] {
    try paymentHistory(of: journal, liveEnd: liveEnd, progress: progress).records
  }
}
