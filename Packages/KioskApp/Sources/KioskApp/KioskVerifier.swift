import Journal
import KioskCommands
import Tabs

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `kiosk verify`: replays a journal file from its first record, streaming,
/// and checks every checkpoint in it against the replay that reaches it; with
/// `--all`, every day's file, and that each day starts where the one before ended.
public enum KioskVerifier {
  /// What one file's replay found.
  public struct Report: Sendable {
    /// The file.
    public var path: String
    /// The day it covers.
    public var day: Int
    /// Records replayed, checkpoints included.
    public var records: Int
    /// Checkpoints checked against the replay (the opening one is where replay starts).
    public var checkpoints: Int
    /// The replayed state at the end.
    public var state: KioskSnapshot
    /// The first record, when it is a checkpoint (every day after the first).
    public var opening: KioskCheckpoint?
    /// The day it closed, when it ends with `dayClosed`.
    public var closedDay: Int?
    /// Bytes at the end left unread (a torn tail, or an append in flight).
    public var unreadTailBytes: Int
    /// The placeholders `kiosk repair` left for damaged records, by sequence
    /// number: the replay takes the state up again at the next checkpoint.
    public var lost: [Int] = []
    /// What the day's settled-tabs file holds against the replay.
    public var settledTabsFile: SettledTabsCheck = .notVouchedFor
  }

  /// The day's settled-tabs file against the replay, at the last checkpoint
  /// that vouches for it (`KioskCheckpoint.settledTabs`).
  public enum SettledTabsCheck: Equatable, Sendable {
    /// It holds, up to the checkpoint's mark, exactly the entries the records before the checkpoint make.
    case agrees(entries: Int)
    /// It does not hold what the checkpoint says (missing, cut, damaged, another day's): the next writer rebuilds it.
    case unreadable
    /// It holds valid entries up to the mark that are not the ones the records make.
    case differs
    /// No checkpoint vouches for it (format 2, a day without checkpoints, or a record lost to damage before).
    case notVouchedFor
  }

  /// A disagreement: the journal is not what it claims to be.
  public struct Failure: Error, Equatable, CustomStringConvertible {
    /// What disagrees, where.
    public var description: String
  }

  /// Fails on a customer's name holding a character that can change what is
  /// printed around it (`CustomerName.rewritesOutput`: a line break, an escape,
  /// a bidirectional control): no till writes one, and one could forge lines of
  /// `board` or `history`. Other names the rules refuse today (longer ones, a
  /// private-use character) may come from before the rules, and are read.
  static func checkName(in record: KioskRecord, sequence: Int, path: String) throws(Failure) {
    if case .tillNamed(let till) = record, !HeadOfficeSync.isTillName(till) {
      throw Failure(
        description: "'\(path)': record \(sequence) names the till \(till.debugDescription), which is no till's name")
    }
    guard case .opened(_, let customer) = record,
      let bad = customer.unicodeScalars.first(where: CustomerName.rewritesOutput)
    else { return }
    throw Failure(
      description: "'\(path)': record \(sequence): the customer's name contains U+"
        + "\(String(bad.value, radix: 16, uppercase: true)), which could change what board and history print")
  }

  /// Replays the file at `path` from its first record and checks each checkpoint after it.
  /// With `end`, the file is read as it stood when it was `end` bytes long (`ReadPoint`).
  public static func replay(path: String, endingAt end: Int? = nil, progress: ((Int, Int) -> Void)? = nil) throws
    -> Report
  {
    var world = ReplayWorld()
    var replay = KioskReplay.Progress()
    var openIntents: [PaymentIntent] = []
    var opening: KioskCheckpoint?
    var day = 1
    var checked = 0
    var lost: [Int] = []
    // After a lost command (or a lost first record) the state is unknown until the next checkpoint restores it.
    var lostState = false
    // The settled-tabs entries the records make, counted and checksummed as the file frames them; and
    // where the last checkpoint that vouches for the file said it stood then. Not followed after a loss.
    var settledEntries = 0
    var settledCRC: UInt32 = 0
    var vouched: (mark: DerivedLog.Mark, entries: Int, crc: UInt32)?
    var settledTracked = true
    func restore(_ checkpoint: KioskCheckpoint) {
      world.restore(checkpoint.state)
      replay = KioskReplay.Progress(checkpoint: checkpoint)
      openIntents = checkpoint.openIntents
      day = checkpoint.day
    }
    let summary = try KioskJournalReader.walk(path: path, endingAt: end, progress: progress) { sequence, entry in
      switch entry {
      case .checkpoint(let checkpoint) where sequence == 1:
        restore(checkpoint)
        opening = checkpoint
        vouched = checkpoint.settledTabs.map { ($0, 0, 0) }
      case .checkpoint(let checkpoint) where lostState:
        restore(checkpoint)
        lostState = false
        settledTracked = false
        vouched = nil
      case .checkpoint(let checkpoint):
        let location = "'\(path)': the checkpoint at record \(sequence)"
        guard checkpoint.state.canonicalJSONWrittenByHand() == world.snapshot.canonicalJSONWrittenByHand() else {
          throw Failure(
            description:
              "\(location) holds state \(checkpoint.state.digest), the replay reaches \(world.snapshot.digest)")
        }
        guard checkpoint.undo == replay.history.entries else {
          throw Failure(description: "\(location) holds another undo history than the replay")
        }
        guard checkpoint.openIntents == openIntents else {
          throw Failure(description: "\(location) holds other open payment intents than the replay")
        }
        guard checkpoint.day == day else {
          throw Failure(description: "\(location) says day \(checkpoint.day), the file covers day \(day)")
        }
        guard checkpoint.till == replay.till else {
          throw Failure(
            description: "\(location) names the till \(checkpoint.till.map { "'\($0)'" } ?? "nothing"), the records "
              + (replay.till.map { "name it '\($0)'" } ?? "name none"))
        }
        if settledTracked, let mark = checkpoint.settledTabs { vouched = (mark, settledEntries, settledCRC) }
        checked += 1
      case .record where lostState:
        break
      case .record(let record):
        try checkName(in: record, sequence: sequence, path: path)
        replay.settledTabs = []
        try KioskReplay.apply(record, sequence: sequence, to: &world, progress: &replay)
        openIntents = KioskRecord.openIntents(in: [record], openBefore: openIntents)
        for entry in replay.settledTabs ?? [] {
          settledCRC = SettledTabsFile.checksum(SettledTabsFile.payload(of: entry), after: settledCRC)
          settledEntries += 1
        }
      case .lost(let record):
        lost.append(sequence)
        if record != .checkpoint || sequence == 1 { lostState = true }
      }
    }
    if lostState {
      throw Failure(
        description: "'\(path)': record \(lost.last ?? 0) was lost to damage and no checkpoint after it holds the state"
      )
    }
    if summary.records == 0 {
      throw Failure(description: "'\(path)' holds no record")
    }
    var report = Report(
      path: path, day: day, records: summary.records, checkpoints: checked, state: world.snapshot, opening: opening,
      closedDay: replay.closedDay?.day, unreadTailBytes: summary.unreadTailBytes, lost: lost)
    if let vouched {
      report.settledTabsFile = SettledTabsFile.check(besideJournal: path, mark: vouched.mark) {
        $0 == vouched.entries && $1 == vouched.crc
      }
    }
    return report
  }

  /// Checks that `next` starts where `previous` ended: it opens with a
  /// checkpoint naming `previous`, holding its closing state without the settled tabs.
  public static func checkChain(from previous: Report, to next: Report) throws(Failure) {
    let name = URL(fileURLWithPath: previous.path).lastPathComponent
    guard previous.closedDay == previous.day else {
      throw Failure(description: "'\(previous.path)' is followed by another day but was never closed")
    }
    guard let opening = next.opening, let link = opening.previousDay else {
      guard next.lost.first != 1 else {
        throw Failure(
          description: "'\(next.path)': record 1, its opening checkpoint, was lost to damage, so its link to "
            + "'\(name)' cannot be checked; restore the journal from a backup to check it")
      }
      throw Failure(description: "'\(next.path)' does not open with a checkpoint that names the day before")
    }
    let carried = previous.state.carriedOver
    guard link.day == previous.day, link.archive == name, link.lastSequence == UInt64(previous.records),
      opening.day == previous.day + 1
    else {
      throw Failure(
        description: "'\(next.path)' continues day \(link.day) ('\(link.archive)', \(link.lastSequence) records), "
          + "not day \(previous.day) ('\(name)', \(previous.records) records)")
    }
    guard link.carriedDigest == carried.digest,
      opening.state.canonicalJSONWrittenByHand() == carried.canonicalJSONWrittenByHand()
    else {
      throw Failure(
        description: "'\(next.path)' opens with state \(opening.state.digest); day \(previous.day) ended with "
          + "\(carried.digest) once its settled tabs were archived")
    }
  }
}
