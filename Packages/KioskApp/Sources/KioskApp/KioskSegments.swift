import Foundation

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

    /// Names a file.
    public init(day: Int?, path: String) {
      self.day = day
      self.path = path
    }
  }

  /// The folder part of `path` (empty for a bare file name), as
  /// `deletingLastPathComponent` gives it: which Foundation 6.3.1 on Linux
  /// traps on for a bare name such as `kiosk.journal`.
  static func folder(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "" }
    let folder = String(path[..<slash])
    return folder.isEmpty ? "/" : folder
  }

  /// The archive's file name for `day` of the journal at `journal`.
  public static func archiveName(of journal: String, day: Int) -> String {
    (journal as NSString).lastPathComponent + ".day-" + String(format: "%04d", day)
  }

  /// The archive's path for `day`, beside the journal (relative when the journal's path is).
  public static func archivePath(of journal: String, day: Int) -> String {
    let folder = folder(of: journal)
    let name = archiveName(of: journal, day: day)
    return folder.isEmpty ? name : (folder as NSString).appendingPathComponent(name)
  }

  /// Every archive beside `journal` (a name `JOURNAL.day-` and four or more
  /// digits), oldest day first.
  public static func archives(of journal: String) -> [Segment] {
    let folder = folder(of: journal)
    let prefix = (journal as NSString).lastPathComponent + ".day-"
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder)) ?? []
    return names.compactMap { name -> Segment? in
      let digits = name.dropFirst(prefix.count)
      guard name.hasPrefix(prefix), digits.count >= 4, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
        let day = Int(digits), day > 0
      else { return nil }
      return Segment(day: day, path: folder.isEmpty ? name : (folder as NSString).appendingPathComponent(name))
    }.sorted { ($0.day!, $0.path) < ($1.day!, $1.path) }
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
        + (unread > 0 ? " (\(unread) bytes at its end are unreadable)" : "")
    case .changedWhileReading(let path):
      "'\(path)' moved on to another day while it was read (a day was closed); run the command again"
    case .file(let path, let reason): "'\(path)': \(reason)"
    }
  }
}
