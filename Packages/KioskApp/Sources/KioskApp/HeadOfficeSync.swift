import HeadOffice
import Journal
import KioskCommands

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `kiosk sync`: ships each closed day of a till that the head office does not
/// hold yet, oldest first, through any world's head-office link. The till's
/// archives are only read; the live day is not shipped until it is closed.
public enum HeadOfficeSync {
  /// What happened to one closed day.
  public struct Shipped: Equatable, Sendable {
    /// The day's number.
    public var day: Int
    /// What the head office did with it.
    public var shipment: Shipment
  }

  /// Why a sync stopped before every closed day was at the head office.
  public struct Stopped: Error, Sendable {
    /// What stopped it: the head office's error, or an archive that cannot be read.
    public var reason: String
    /// Whether the head office itself failed (down, unreachable, refusing),
    /// rather than the till's own files.
    public var headOffice: HeadOfficeError?
    /// The days shipped before it stopped.
    public var shipped: [Shipped]
    /// The closed days the head office still lacks, as far as the till knows.
    public var behind: [Int]
    /// The till's closed days (archives), set-aside ones included, as a finished sync reports them.
    public var closedDays: [Int] = []
    /// Closed days set aside as damaged.
    public var setAside: [Int] = []
  }

  /// What a finished sync did.
  public struct Summary: Equatable, Sendable {
    /// Each closed day the head office lacked, and what it did with it.
    public var shipped: [Shipped]
    /// The till's closed days (archives), set-aside ones included.
    public var closedDays: [Int]
    /// Closed days set aside as damaged (`kiosk set-aside`): never shipped.
    public var setAside: [Int]
    /// What went wrong without stopping the sync (a note that could not be written).
    public var warnings: [String] = []
  }

  /// A till's name in the chain: 1 to 64 of `A-Z a-z 0-9 . _ -`.
  public static func isTillName(_ name: String) -> Bool {
    (1...64).contains(name.utf8.count)
      && name.utf8.allSatisfy { byte in
        (byte >= 0x30 && byte <= 0x39) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A) || byte == 0x2E
          || byte == 0x5F || byte == 0x2D
      }
  }

  /// Ships each closed day of the till whose live journal is `journal` that the
  /// head office linked by `world` does not hold, as this till's, with the
  /// digest this till noted for the same archive; oldest first; `shipped`
  /// hears of each.
  ///
  /// The head office is always asked what it holds (`heldDays`). This till's
  /// notes, beside the journal (`<journal>.head-office`: till, day, the
  /// archive's salt and the digest per line), only save re-reading an archive
  /// the head office holds with the digest noted for that very file. Any other
  /// day is read, digested and shipped: the head office answers `alreadyHeld`
  /// for the same digest and refuses another day under the same till and number.
  /// So a lost, stale or foreign note costs a re-send, never a wrong answer.
  /// A gap in the archives (a day's file missing) stops the sync: a day is never
  /// skipped silently.
  public static func run<World: HasHeadOffice & ~Copyable>(
    journal: String, till: String, world: inout World, shipped report: (Shipped) -> Void = { _ in }
  ) throws(Stopped) -> Summary {
    // The live day first: a day closed meanwhile only adds an archive to the listing that follows.
    let live = FileManager.default.fileExists(atPath: journal) ? try? KioskJournalReader.opening(path: journal) : nil
    let archives = KioskSegments.archives(of: journal)
    let closedDays = archives.compactMap(\.day)
    let setAside = archives.filter(\.setAside).compactMap(\.day)
    /// Why the sync stopped, with the till's closed days as this sync read them.
    func stopped(_ reason: String, _ headOffice: HeadOfficeError?, shipped: [Shipped], behind: [Int]) -> Stopped {
      Stopped(
        reason: reason, headOffice: headOffice, shipped: shipped, behind: behind, closedDays: closedDays,
        setAside: setAside)
    }
    if let twice = Dictionary(grouping: archives, by: { $0.day ?? 0 }).first(where: { $0.value.count > 1 }) {
      let names = twice.value.map { "'\(PathNames.lastComponent(of: $0.path))'" }.joined(separator: " and ")
      throw stopped(
        "\(names) both hold day \(twice.key); keep one, so that the day is shipped once", nil, shipped: [],
        behind: [twice.key])
    }
    var notes = Acknowledgements(path: journal + ".head-office")
    /// Whether this till noted the head office holding day `archive`, read from this very file.
    func noted(_ archive: KioskSegments.Segment) -> Bool { notes.acknowledged(archive, till: till) }
    let held: [Int: String]
    do {
      held = try world.daysAtHeadOffice(of: till)
    } catch {
      // Behind as far as this till knows: the days it has no note of the head office holding.
      throw stopped(
        error.description, error, shipped: [], behind: archives.filter { !$0.setAside && !noted($0) }.compactMap(\.day))
    }
    // Every day before the live one was closed, so each has an archive, the newest included, unless
    // the head office holds it (a till may prune archives the head office has).
    let last = max(closedDays.max() ?? 0, (live?.day ?? 1) - 1)
    if last > 0, let gap = Set(1...last).subtracting(closedDays).subtracting(held.keys).min() {
      let missing = KioskDaysError.missingArchive(day: gap, path: KioskSegments.archivePath(of: journal, day: gap))
      let behind = Set(1...last).subtracting(held.keys).subtracting(setAside).sorted()
      throw stopped(missing.description, nil, shipped: [], behind: behind)
    }
    var warnings: [String] = []
    let pending = archives.filter { archive in
      guard !archive.setAside, let day = archive.day else { return false }
      guard let digest = held[day], noted(archive) else { return true }
      return notes.note(till: till, day: day)?.digest != digest
    }
    var shipped: [Shipped] = []
    // How the day before the next one to ship ended, when it was read.
    var ended: ClosedDay?
    for (index, archive) in pending.enumerated() {
      let behind = pending[index...].compactMap(\.day).filter { held[$0] == nil }
      guard let number = archive.day else { continue }
      let day: TillDay
      do {
        // The day before was not read this time (the head office holds it): read it for how it ended.
        if number > 1, ended?.day != number - 1,
          let before = archives.first(where: { $0.day == number - 1 }), !before.setAside
        {
          ended = try KioskJournalReader.readingArchive(before) {
            try readDay(till: till, day: number - 1, path: before.path).ending
          }
        }
        // A damaged archive is never repaired in place: the advice is to restore it or set it aside.
        let read = try KioskJournalReader.readingArchive(archive) {
          try readDay(till: till, day: number, path: archive.path)
        }
        if let previous = ended, previous.day == number - 1 {
          try checkContinues(read.continues, previous: previous, day: number, path: archive.path)
        }
        // The newest closed day is the one the live day continues.
        if let live, live.day == number + 1 {
          try checkContinues(live.continues, previous: read.ending, day: live.day, path: journal)
        }
        (day, ended) = (read.day, read.ending)
      } catch {
        throw stopped("\(error)", nil, shipped: shipped, behind: behind)
      }
      let outcome: Shipped
      do {
        outcome = Shipped(day: number, shipment: try world.shipToHeadOffice(day))
      } catch {
        throw stopped(error.description, error, shipped: shipped, behind: behind)
      }
      shipped.append(outcome)
      report(outcome)
      if let salt = KioskSegments.salt(of: archive.path) {
        do {
          try notes.add(till: till, day: number, salt: salt, digest: day.digest)
        } catch {
          // The head office has the day; only the note failed: the next sync reads the archive again.
          if warnings.isEmpty { warnings.append("\(error); the next sync reads the archives again") }
        }
      }
    }
    return Summary(shipped: shipped, closedDays: closedDays, setAside: setAside, warnings: warnings)
  }

  /// The day archived at `path` as the head office stores it (every record as
  /// the journal holds it, the Z report's sales and totals, and the day's
  /// digest), what its opening checkpoint says it continues, and how it ended,
  /// as the next day's opening checkpoint must name it. Refused unless the
  /// archive is whole (it ends with its `dayClosed`).
  ///
  /// Each record goes as the journal holds it, byte for byte, with the file's
  /// version, salt and CRC-32C: the head office can give the very file back
  /// (`kiosk heal`), and its audit decodes each record as that version reads it.
  ///
  /// The digest names both what happened and where it ended: the records'
  /// digest (`DayBuilder`), then the digest of the closing state that
  /// `kiosk verify` prints. Two tills that end a day in the same state, or a
  /// till whose records were altered, never share one.
  static func readDay(till: String, day: Int, path: String) throws -> (
    day: TillDay, continues: ClosedDay?, ending: ClosedDay
  ) {
    var builder = DayBuilder()
    var version: UInt16?
    // One read of the archive: the report replays it, and hands each entry over as it goes.
    let summary = try KioskJournalReader.walkRecords(path: path) { sequence, entry, record in
      version = record.version
      try builder.take(sequence, entry, payload: Array(record.payload))
    }
    guard summary.unreadTailBytes == 0,
      var closed = builder.finish(till: till, number: day, archive: PathNames.lastComponent(of: path))
    else {
      throw KioskDaysError.damagedArchive(path: path, unreadBytes: summary.unreadTailBytes)
    }
    // The file itself, which the records above rebuild exactly: an archive is never written again.
    guard let bytes = FileManager.default.contents(atPath: path), let salt = KioskSegments.salt(of: path) else {
      throw KioskDaysError.file(path: path, reason: "it cannot be read again")
    }
    closed.day.file = TillDay.File(
      version: Int(version ?? JournalFormat.version), salt: salt,
      // Up to its last record: an archive a crash left with zeros written ahead is the same file.
      crc: bytes.prefix(summary.recordsEnd).withUnsafeBytes { CRC32C.update(0, $0) })
    return (closed.day, builder.continues, closed.ending)
  }

  /// Refuses day `day` (its file at `path`) unless it opens where the day
  /// before ended (`previous`: its number, its records and the digest of the
  /// state it carried over). An archive copied in from another till, or from
  /// another run of this one, does not. The archive's file name is not
  /// compared: renaming a till's journal changes no day.
  static func checkContinues(_ continues: ClosedDay?, previous: ClosedDay, day: Int, path: String)
    throws(KioskDaysError)
  {
    guard let continues else {
      throw .file(path: path, reason: "day \(day) does not open with a checkpoint that names day \(day - 1)")
    }
    guard
      (continues.day, continues.lastSequence, continues.carriedDigest)
        != (previous.day, previous.lastSequence, previous.carriedDigest)
    else { return }
    throw .file(
      path: path,
      reason: "day \(day) does not continue this till's day \(previous.day): it opens after a day \(continues.day) of "
        + "\(continues.lastSequence) records that carried state \(continues.carriedDigest), but day \(previous.day) "
        + "('\(previous.archive)') has \(previous.lastSequence) records and carried \(previous.carriedDigest); "
        + "one of the two files belongs to another till")
  }
}

extension KioskRecord {
  /// The record's kind, as the head office files it: the case's name.
  var kind: String {
    switch self {
    case .initialized: "initialized"
    case .opened: "opened"
    case .added: "added"
    case .removed: "removed"
    case .paymentIntent: "paymentIntent"
    case .paymentAbandoned: "paymentAbandoned"
    case .settled: "settled"
    case .restocked: "restocked"
    case .undone: "undone"
    case .dayClosed: "dayClosed"
    case .tillNamed: "tillNamed"
    }
  }

  /// The tab it concerns, when it concerns one.
  var tab: Int? {
    switch self {
    case .opened(let tab, _), .added(_, let tab), .removed(_, let tab): tab.raw
    case .settled(let receipt): receipt.tab.raw
    case .paymentIntent(let intent): intent.tab.raw
    default: nil
    }
  }

  /// The money it moves or means to move: a settle's total, an intent's amount.
  var amount: Decimal? {
    switch self {
    case .settled(let receipt): receipt.total
    case .paymentIntent(let intent): intent.amount
    default: nil
    }
  }
}
