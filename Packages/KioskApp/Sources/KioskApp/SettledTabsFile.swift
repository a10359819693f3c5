import Journal
import KioskCommands
import Tabs

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The day's settled tabs, beside its journal: `<journal>.settled`, a
/// `DerivedLog` of `SettledTabsEntry`s, one per `settled` record and per
/// undo of one, in journal order. A settled tab leaves the state, so no
/// checkpoint holds it and no process that opens the till reads it; this file
/// is where `board --all` finds the day's settled tabs, and it goes with the
/// day's archive when the day closes (docs/journal.md, "Settled tabs").
///
/// It is derived, never the truth: each checkpoint records where the file
/// stood (`KioskCheckpoint.settledTabs`), the records after the checkpoint
/// say the rest, and a file that does not hold what the checkpoint says is
/// rebuilt from the journal by the next writer (and read around by a reader).
public enum SettledTabsFile {
  /// The file beside the journal at `journal`.
  public static func path(besideJournal journal: String) -> String { journal + suffix }

  /// What the file's name adds to its journal's.
  public static let suffix = ".settled"

  /// The bytes of one entry.
  static func payload(of entry: SettledTabsEntry) -> [UInt8] {
    // Plain values: the encoder cannot fail on them.
    (try? JournalJSONWriter.bytes(of: entry)) ?? []
  }

  /// The entries of the file beside `journal` up to `mark`, nil when it does
  /// not hold exactly them (missing, damaged, another day's, or not decodable).
  public static func entries(besideJournal journal: String, salt: UInt64, through mark: DerivedLog.Mark)
    -> [SettledTabsEntry]?
  {
    guard let payloads = DerivedLog.read(path: path(besideJournal: journal), salt: salt, through: mark) else {
      return nil
    }
    var entries: [SettledTabsEntry] = []
    entries.reserveCapacity(payloads.count)
    let decoder = JSONDecoder()
    for payload in payloads {
      guard let entry = try? SettledTabsEntry.decoded(from: payload, decoder: decoder) else { return nil }
      entries.append(entry)
    }
    return entries
  }

  /// `crc` carried over one entry's payload, its length first: what
  /// `verify` compares the file with the replay by.
  static func checksum(_ payload: [UInt8], after crc: UInt32) -> UInt32 {
    var length = UInt32(payload.count).littleEndian
    let counted = withUnsafeBytes(of: &length) { CRC32C.update(crc, $0) }
    return payload.withUnsafeBytes { CRC32C.update(counted, $0) }
  }

  /// The file beside the journal at `journal` against what the replay made
  /// up to `mark`: `matches` gets the file's entry count and checksum there.
  static func check(besideJournal journal: String, mark: DerivedLog.Mark, matches: (Int, UInt32) -> Bool)
    -> KioskVerifier.SettledTabsCheck
  {
    guard let salt = KioskSegments.salt(of: journal),
      let payloads = DerivedLog.read(path: path(besideJournal: journal), salt: salt, through: mark)
    else { return .unreadable }
    let crc = payloads.reduce(UInt32(0)) { checksum(Array($1), after: $0) }
    return matches(payloads.count, crc) ? .agrees(entries: payloads.count) : .differs
  }

  /// Every entry the day in the journal file at `path` makes, found by
  /// replaying it from its first record, streaming (what a writer rebuilds
  /// the file from, and what a reader lists when the file cannot be used).
  /// A record lost to damage makes no entry: the replay takes the state up
  /// again at the next checkpoint, so a tab whose settle was lost is counted
  /// by the state but not listed.
  public static func replayedEntries(ofDay path: String, endingAt end: Int? = nil) throws -> [SettledTabsEntry] {
    var world = ReplayWorld()
    var progress = KioskReplay.Progress()
    var entries: [SettledTabsEntry] = []
    var lostState = false
    try KioskJournalReader.walk(path: path, endingAt: end) { sequence, entry in
      switch entry {
      case .checkpoint(let checkpoint) where sequence == 1 || lostState:
        world.restore(checkpoint.state)
        progress = KioskReplay.Progress(checkpoint: checkpoint)
        lostState = false
      case .checkpoint:
        break
      case .record where lostState:
        break
      case .record(let record):
        progress.settledTabs = []
        try KioskReplay.apply(record, sequence: sequence, to: &world, progress: &progress)
        entries.append(contentsOf: progress.settledTabs ?? [])
      case .lost(let record):
        if record != .checkpoint || sequence == 1 { lostState = true }
      }
    }
    return entries
  }
}

/// The day's settled tabs as `board --all` lists them.
public struct SettledListing: Equatable, Sendable {
  /// The settled tabs, by number.
  public var tabs: [SettledTab]
  /// How many tabs the state counts as settled that the listing could not
  /// find (their records were lost to damage); 0 when it lists them all.
  public var unlisted: Int

  /// The listing of `entries` for a state that counts `settled`.
  public init(_ entries: some Sequence<SettledTabsEntry>, counted settled: SettledTabs) {
    let found = SettledTabsEntry.fold(entries)
    tabs = found.keys.sorted().map { found[$0]! }
    unlisted = max(0, settled.count - tabs.count)
  }
}
