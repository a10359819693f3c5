import Foundation

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

  /// The archive's file name for `day` of the journal at `journal`.
  public static func archiveName(of journal: String, day: Int) -> String {
    URL(fileURLWithPath: journal).lastPathComponent + ".day-" + String(format: "%04d", day)
  }

  /// The archive's path for `day`, beside the journal.
  public static func archivePath(of journal: String, day: Int) -> String {
    URL(fileURLWithPath: journal).deletingLastPathComponent().appendingPathComponent(
      archiveName(of: journal, day: day)
    ).path
  }

  /// Every archive beside `journal`, oldest day first, then the live journal
  /// when it exists (`--all`).
  public static func all(of journal: String) -> [Segment] {
    let url = URL(fileURLWithPath: journal)
    let prefix = url.lastPathComponent + ".day-"
    let names = (try? FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)) ?? []
    let archives: [Segment] = names.compactMap { name in
      guard name.hasPrefix(prefix), let day = Int(name.dropFirst(prefix.count)), day > 0,
        name.dropFirst(prefix.count).allSatisfy(\.isASCII)
      else { return nil }
      return Segment(day: day, path: url.deletingLastPathComponent().appendingPathComponent(name).path)
    }
    let live = FileManager.default.fileExists(atPath: journal) ? [Segment(day: nil, path: journal)] : []
    return archives.sorted { $0.day! < $1.day! } + live
  }
}
