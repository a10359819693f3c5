import Journal
import Payment

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The files of a kiosk's journal: each closed day's archive beside the live
/// journal (`kiosk.journal.day-0001`, …), then the live journal itself.
public enum KioskSegments {
  /// One journal file.
  public struct Segment: Equatable, Sendable {
    /// The day it covers, when its name says (archives); nil for the live journal.
    public var day: Int?
    /// The file.
    public var path: String
    /// Whether the archive was set aside as damaged (`kiosk set-aside`): its
    /// day is known to be there and is not read.
    public var setAside = false

    /// Names a file.
    public init(day: Int?, path: String, setAside: Bool = false) {
      self.day = day
      self.path = path
      self.setAside = setAside
    }
  }

  /// What `kiosk set-aside` renames a damaged archive to.
  public static let setAsideSuffix = ".set-aside"

  /// The archive's file name for `day` of the journal at `journal`.
  public static func archiveName(of journal: String, day: Int) -> String {
    // Padded by hand: `%04d` takes a 32-bit integer and would name another day for a large one.
    let digits = String(day)
    return PathNames.lastComponent(of: journal) + ".day-" + String(repeating: "0", count: max(0, 4 - digits.count))
      + digits
  }

  /// The archive's path for `day`, beside the journal (relative when the journal's path is).
  public static func archivePath(of journal: String, day: Int) -> String {
    let folder = PathNames.folder(of: journal)
    let name = archiveName(of: journal, day: day)
    return PathNames.joining(folder, name)
  }

  /// Every archive beside `journal` (a name `JOURNAL.day-` and four or more
  /// digits), oldest day first; an archive set aside (the same name ending in
  /// `.set-aside`) stands for its day unless the archive itself is back.
  public static func archives(of journal: String) -> [Segment] {
    let folder = PathNames.folder(of: journal)
    let prefix = PathNames.lastComponent(of: journal) + ".day-"
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder)) ?? []
    let found = names.compactMap { name -> Segment? in
      let setAside = name.hasSuffix(setAsideSuffix)
      let digits = name.dropFirst(prefix.count).dropLast(setAside ? setAsideSuffix.count : 0)
      guard name.hasPrefix(prefix), digits.count >= 4, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
        let day = Int(digits), day > 0
      else { return nil }
      let path = PathNames.joining(folder, name)
      return Segment(day: day, path: path, setAside: setAside)
    }
    let restored = Set(found.filter { !$0.setAside }.compactMap(\.day))
    return found.filter { !$0.setAside || !restored.contains($0.day!) }
      .sorted { ($0.day!, $0.path) < ($1.day!, $1.path) }
  }

  /// The day an archive's name gives (`JOURNAL.day-0007` is 7).
  static func day(ofArchive path: String) -> Int? {
    guard let range = path.ranges(of: ".day-").last else { return nil }
    return Int(path[range.upperBound...].prefix { $0.isASCII && $0.isNumber })
  }

  /// The salts whose movements the payment audit leaves out, given the
  /// ledger's movements: those of the set-aside archives, and, when a
  /// set-aside archive's header no longer reads, every salt of `ledger` that
  /// no readable day file carries (the set-aside day is the only place it can be from).
  public static func setAsideSalts(of journal: String, ledger: [LocalProcessor.Entry]) -> [UInt64] {
    let setAside = archives(of: journal).filter(\.setAside)
    var salts = setAside.compactMap { salt(of: $0.path) }
    if salts.count < setAside.count {
      let known = Set(all(of: journal).filter { !$0.setAside }.compactMap { salt(of: $0.path) })
      salts += Set(ledger.compactMap(\.key.journalSalt)).subtracting(known).subtracting(salts).sorted()
    }
    return salts
  }

  /// The salt in the header of the file at `path`, nil when it does not read.
  static func salt(of path: String) -> UInt64? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var header = [UInt8](repeating: 0, count: JournalFormat.headerSize)
    let read = header.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
    return read == header.count ? DurableJournal.salt(ofHeader: header) : nil
  }

  /// Every archive, oldest first, then the live journal when it exists and is
  /// not itself the newest archive (a close cut short between its last two
  /// steps leaves the day's file under both names; it is read once).
  public static func all(of journal: String) -> [Segment] {
    let archives = archives(of: journal)
    guard FileManager.default.fileExists(atPath: journal) else { return archives }
    if let newest = archives.last, sameFile(newest.path, journal) { return archives }
    return archives + [Segment(day: nil, path: journal)]
  }

  /// Whether two paths name the same file.
  public static func sameFile(_ first: String, _ second: String) -> Bool {
    var one = stat()
    var two = stat()
    return stat(first, &one) == 0 && stat(second, &two) == 0 && one.st_dev == two.st_dev && one.st_ino == two.st_ino
  }
}

/// Why the days of a journal cannot be read as one history.
public enum KioskDaysError: Error, Equatable, CustomStringConvertible {
  /// An archive the days before or after it need is not there.
  case missingArchive(day: Int, path: String)
  /// A file holds another day than its place says.
  case wrongDay(path: String, holds: Int, expected: Int)
  /// An archive does not end with its `dayClosed` record.
  case damagedArchive(path: String, unreadBytes: Int)
  /// An archive cannot be read to its end: `reason` says where and why.
  case unreadableArchive(path: String, day: Int, reason: String)
  /// The live journal changed while it was read (a day was closed).
  case changedWhileReading(path: String)
  /// Reading one of the files failed.
  case file(path: String, reason: String)

  public var description: String {
    switch self {
    case .missingArchive(let day, let path): "the archive of day \(day) ('\(path)') is missing"
    case .wrongDay(let path, let holds, let expected):
      "'\(path)' holds day \(holds) where day \(expected) belongs; the archives were renamed or moved"
    case .damagedArchive(let path, let unread):
      "the archive '\(path)' is damaged: it does not end with its day's close"
        + (unread > 0 ? " (\(unread) bytes at its end are unreadable)" : "") + "; "
        + Self.wayOut(day: KioskSegments.day(ofArchive: path))
    case .unreadableArchive(let path, let day, let reason):
      "the archive of day \(day) is damaged: \(reason.hasPrefix("'\(path)'") ? reason : "'\(path)': \(reason)"); "
        + Self.wayOut(day: day)
    case .changedWhileReading(let path):
      "'\(path)' moved on to another day while it was read (a day was closed); run the command again"
    case .file(let path, let reason): "'\(path)': \(reason)"
    }
  }

  /// What to do about a damaged archive: archives are never repaired in place.
  static func wayOut(day: Int?) -> String {
    let day = day.map(String.init) ?? "DAY"
    return "restore it with 'kiosk heal \(day)' (from the head office's copy, when it holds one) or from a backup, "
      + "or set it aside with 'kiosk set-aside \(day)' (history, verify and reconcile then leave day \(day) out and say so)"
  }
}
