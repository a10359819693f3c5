import HeadOffice
import Journal

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

extension HeadOfficeSync {
  /// What `heal` did.
  public enum Healing: Equatable, Sendable {
    /// The archive was written again from the head office's copy; a damaged
    /// file that stood in its place was kept aside under `kept`.
    case restored(kept: String?)
    /// The archive was already the file the head office's copy makes: nothing was written.
    case alreadyWhole
  }

  /// Why an archive was not healed: nothing was written.
  public struct HealRefusal: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong, in a sentence.
    public var description: String
  }

  /// Gives the till whose live journal is `journal` back its archive of day
  /// `held.day`, from `held`, the head office's copy of it, byte for byte:
  /// the journal's header (version, salt) and each record's bytes framed as
  /// the journal frames them (`JournalImage`). The file is written beside the
  /// archive, synced, and checked before it takes the archive's name:
  /// - its CRC-32C is the one the till shipped with the day (the very file);
  /// - it reads to the end and its digest is the one the head office holds;
  /// - it opens where the day before ended (when that archive is there), and
  ///   the day after (its archive, or the live journal) opens where it ends;
  /// - it is the file this till shipped, as far as the till knows: its note of
  ///   the day (`<journal>.head-office`) and the damaged file's header, when
  ///   either is there, name the same salt (and the note the same digest).
  ///
  /// A damaged file in the archive's place is renamed aside
  /// (`<archive>.damaged`, then `.damaged-2`, …), never deleted. The archive
  /// is read-only, like every archive.
  public static func heal(journal: String, held: TillDay) throws -> Healing {
    let day = held.day
    guard let file = held.file else {
      throw HealRefusal(
        description: "the head office holds day \(day) as it was shipped before it kept the journal's bytes: "
          + "it cannot give the file back")
    }
    let bytes: [UInt8]
    do {
      bytes = try fileImage(of: held, file: file)
    } catch {
      throw HealRefusal(description: "the head office's copy of day \(day) makes no journal: \(error)")
    }
    guard CRC32C.checksum(bytes) == file.crc else {
      throw HealRefusal(
        description: "the head office's copy of day \(day) is not the file the till shipped (its CRC-32C differs)")
    }
    let archive = KioskSegments.archivePath(of: journal, day: day)
    if let standing = FileManager.default.contents(atPath: archive), Array(standing) == bytes {
      return .alreadyWhole
    }
    // What this till knows of the file it shipped: its note of the head office's
    // answer, and the damaged file's own header when that still reads.
    let note = Acknowledgements(path: journal + ".head-office").note(till: held.till, day: day)
    if let note, note.salt != file.salt || note.digest != held.digest {
      throw HealRefusal(
        description: "the head office's copy of day \(day) is not the day this till shipped as '\(held.till)' "
          + "(its note of that day names another file or digest)")
    }
    if let salt = KioskSegments.salt(of: archive), salt != file.salt {
      throw HealRefusal(
        description: "the head office's copy of day \(day) is of another file than '\(archive)' (their salts differ)")
    }
    let temporary = archive + ".heal-\(getpid())"
    defer { unlink(temporary) }
    try TillFiles.replace(temporary, with: bytes)
    let read: (day: TillDay, continues: ClosedDay?, ending: ClosedDay)
    do {
      read = try readDay(till: held.till, day: day, path: temporary)
    } catch {
      throw HealRefusal(description: "the head office's copy of day \(day) does not read as a closed day: \(error)")
    }
    guard read.day.digest == held.digest else {
      throw HealRefusal(
        description: "the head office's copy of day \(day) reads to digest '\(read.day.digest)', not its own "
          + "'\(held.digest)'")
    }
    try checkChain(journal: journal, day: day, read: read)
    // Aside, not away: the damaged file is evidence.
    var kept: String?
    if access(archive, F_OK) == 0 {
      var aside = archive + ".damaged"
      var number = 2
      while access(aside, F_OK) == 0 {
        aside = archive + ".damaged-\(number)"
        number += 1
      }
      guard rename(archive, aside) == 0 else {
        throw HealRefusal(
          description: "cannot move the damaged '\(archive)' aside: \(String(cString: strerror(errno)))")
      }
      kept = aside
    }
    chmod(temporary, 0o444)
    guard rename(temporary, archive) == 0 else {
      throw HealRefusal(description: "cannot write '\(archive)': \(String(cString: strerror(errno)))")
    }
    TillFiles.syncFolder(of: archive)
    return .restored(kept: kept)
  }

  /// Refuses a healed day that does not sit between its neighbours: the day
  /// before's archive, when it is there, must end where it opens, and the day
  /// after (its archive, or the live journal) must open where it ends.
  private static func checkChain(
    journal: String, day: Int, read: (day: TillDay, continues: ClosedDay?, ending: ClosedDay)
  ) throws {
    let archives = KioskSegments.archives(of: journal).filter { !$0.setAside }
    do {
      if day > 1, let before = archives.first(where: { $0.day == day - 1 }) {
        let previous = try readDay(till: read.day.till, day: day - 1, path: before.path).ending
        try checkContinues(read.continues, previous: previous, day: day, path: before.path)
      }
      let after = archives.first(where: { $0.day == day + 1 })?.path ?? journal
      if let opening = try KioskJournalReader.opening(path: after), opening.day == day + 1 {
        try checkContinues(opening.continues, previous: read.ending, day: day + 1, path: after)
      }
    } catch {
      throw HealRefusal(description: "the head office's copy of day \(day) does not fit this till's chain: \(error)")
    }
  }
}
