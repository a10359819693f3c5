import Journal
import JournalIO

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

/// One identity for a till's files: the journal's path is resolved once, to
/// the file it names (every symbolic link, of the file or of a folder above
/// it, followed), and the ledger, checkpoints, the next day's file and the
/// archives are all found beside that path. Two paths to one till so share
/// one ledger (docs/journal.md, "One till, one set of files").
public enum TillFiles {
  /// The longest suffixes of the files the kiosk keeps beside its journal
  /// (the store's own aside), at their longest: a closed day's checkpoint
  /// index, an archive set aside, the copy `heal` writes of an archive through
  /// `replace` (a process number has at most seven digits), the sync's notes
  /// written the same way, and the ledger's copies of a torn tail or a
  /// damaged file. A journal whose name leaves no room for them is refused
  /// before anything is written (`DurableStore.refuseNameWithoutRoom`): 220
  /// bytes at most where a folder takes names of 255.
  public static let suffixesBesideJournal = [
    ".day-0001.checkpoints", ".day-0001.set-aside", ".day-0001.heal-4194304.next-4194304",
    ".sync-status.next-4194304", ".head-office.next-4194304", ".processor.torn-tail.99999",
    ".processor.corrupt.99999",
  ]

  /// Whether the journal at `path` holds anything: an empty file is a
  /// journal not begun yet, as a missing one is. A path that cannot name a
  /// journal (its folder not there, a loop of links, a name too long, a
  /// FIFO or a folder where the journal belongs) is refused here, in the
  /// journal's words, before the ledger beside it is opened or made, and
  /// before a reader shows a new till where no till can be.
  public static func journalHasBytes(at path: String) throws -> Bool {
    var status = stat()
    if stat(path, &status) == 0 {
      guard status.st_mode & S_IFMT == S_IFREG else { throw JournalError.notARegularFile(path: path) }
      return status.st_size > 0
    }
    let reason = errno
    let folder = PathNames.folder(of: path)
    var folderStatus = stat()
    guard reason == ENOENT, stat(folder.isEmpty ? "." : folder, &folderStatus) == 0,
      folderStatus.st_mode & S_IFMT == S_IFDIR, folderStatus.st_nlink > 0  // not a folder since removed
    else { throw JournalError.cannotOpen(path: path, Errno(reason)) }
    return false
  }

  /// `path` with every symbolic link followed, as the system follows them
  /// (`..` after a linked folder is that folder's parent on disk): the file
  /// itself when it exists, else the resolved folder it would be created in
  /// plus its name. A link to a file not made yet is followed too, so the
  /// journal is created where the link points, not refused as a file that
  /// both is and is not there. A path whose folder is not there (or that
  /// names no file: `.`, `..`, a trailing slash) is returned made absolute and
  /// otherwise as given, for the system to refuse in its own words; with no
  /// working directory (removed), a relative path is returned as given.
  public static func resolve(_ path: String) -> String {
    guard var absolute = PathNames.absolute(path) else { return path }
    for _ in 0..<32 {  // as many links as the system itself follows
      if let real = realPath(absolute) { return real }
      let name = PathNames.lastComponent(of: absolute)
      guard name != ".", name != "..", !absolute.hasSuffix("/"), let folder = realPath(PathNames.folder(of: absolute))
      else { return absolute }
      let file = PathNames.joining(folder, name)
      guard let destination = linkDestination(file) else { return file }
      absolute = destination.hasPrefix("/") ? destination : PathNames.joining(folder, destination)
    }
    return absolute
  }

  /// Writes `bytes` to a temporary name of this process's beside `path`,
  /// syncs it and renames it over `path`: a reader sees the old file or the
  /// new one, never a part. Throws `KioskDaysError.file` with the reason.
  public static func replace(_ path: String, with bytes: [UInt8]) throws {
    let temporary = path + ".next-\(getpid())"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      throw KioskDaysError.file(path: path, reason: "cannot write it: \(String(cString: strerror(errno)))")
    }
    let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    let synced = fsync(descriptor) == 0
    close(descriptor)
    guard written == bytes.count, synced, rename(temporary, path) == 0 else {
      let reason = String(cString: strerror(errno))
      unlink(temporary)
      throw KioskDaysError.file(path: path, reason: "cannot write it: \(reason)")
    }
  }

  /// Syncs the folder holding `path`, so that a rename or a new name in it
  /// survives a crash (best effort: a folder that cannot be opened is left).
  public static func syncFolder(of path: String) {
    let folder = PathNames.folder(of: path)
    let descriptor = open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard descriptor >= 0 else { return }
    fsync(descriptor)
    close(descriptor)
  }

  /// Where the symbolic link at `path` points, as written in it; nil when `path` is no link.
  private static func linkDestination(_ path: String) -> String? {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX))
    let count = readlink(path, &buffer, buffer.count)
    guard count >= 0 else { return nil }
    return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
  }

  private static func realPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }
}
