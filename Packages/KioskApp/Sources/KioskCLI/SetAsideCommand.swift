import KioskApp

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

/// `kiosk set-aside DAY`: takes a damaged archive out of the history without
/// disabling the till. Archives are never repaired in place (each is sealed by
/// the next day's link to it), so a damaged one is renamed
/// `JOURNAL.day-NNNN.set-aside`: `history --all`, `verify --all` and
/// `reconcile` then leave that day out and say so, and the audit leaves out
/// the processor's movements under that day's keys. Restoring a sound copy
/// under the archive's own name takes the day back.
enum SetAsideCommand {
  struct Output: CommandOutput {
    var command = "set-aside"
    var day: Int
    var archive: String
    var setAsidePath: String
    var text: [String] {
      [
        "set aside day \(day): '\(archive)' is now '\(setAsidePath)'; history, verify and reconcile leave day \(day) "
          + "out and say so; to take it back, put a sound copy of the archive at '\(archive)'"
      ]
    }
  }

  static func run(_ options: GlobalOptions, day word: String) throws -> Output {
    guard let day = Int(word), day > 0, word.allSatisfy({ $0.isASCII && $0.isNumber }) else {
      throw KioskFailure.usage("set-aside needs a day number, e.g. 'kiosk set-aside 3'; got '\(word)'")
    }
    let archive = KioskSegments.archivePath(of: options.journalPath, day: day)
    let target = archive + KioskSegments.setAsideSuffix
    guard FileManager.default.fileExists(atPath: archive) else {
      if FileManager.default.fileExists(atPath: target) {
        throw KioskFailure.domain("day \(day) is set aside already ('\(target)')")
      }
      throw KioskFailure.domain("there is no archive of day \(day) at '\(archive)'")
    }
    if let sound = try? KioskVerifier.replay(path: archive), sound.closedDay == day, sound.unreadTailBytes == 0 {
      throw KioskFailure.domain(
        "the archive of day \(day) ('\(archive)') reads whole and ends with its close; only a damaged archive is set aside"
      )
    }
    guard !FileManager.default.fileExists(atPath: target) else {
      throw KioskFailure.domain("'\(target)' exists already; move it away and run the command again")
    }
    guard rename(archive, target) == 0 else {
      throw KioskFailure(
        code: .journal, message: "cannot rename '\(archive)' to '\(target)': \(String(cString: strerror(errno)))")
    }
    // Make the new name durable: a crash must not bring the damaged archive back.
    TillFiles.syncFolder(of: archive)
    return Output(day: day, archive: archive, setAsidePath: target)
  }
}
