import JournalIO

/// Why the journal could not open, append or repair. Every case reads as one line.
public enum JournalError: Error, Equatable, Sendable, CustomStringConvertible {
  /// `open` failed.
  case cannotOpen(path: String, Errno)
  /// Another holder kept the journal's lock for longer than the open was
  /// willing to wait; `holder` is its process id when the system tells.
  case locked(path: String, holder: Int32? = nil)
  /// The path is a device, a FIFO or a directory, not a journal file.
  case notARegularFile(path: String)
  /// There is no file at the path (for commands that never create one).
  case missing(path: String)
  /// Whole records follow the header that were not written for it: the header
  /// (or the records) came from another journal. Never treated as a torn tail.
  case foreignRecords(offset: Int)
  /// The file does not start with a journal header.
  case notAJournal(path: String)
  /// The header names a format this code does not read.
  case unsupportedVersion(UInt16)
  /// The header's reserved field is not 0: a format this code does not know.
  case unsupportedHeaderField(UInt16)
  /// The header's checksum does not match.
  case corruptHeader(path: String)
  /// A bad record with valid records after it: not a torn tail, so it is never skipped.
  case corruptRecord(offset: Int, sequence: UInt64)
  /// Reading the file failed.
  case readFailed(Errno)
  /// Writing a record failed; it is not committed.
  case writeFailed(Errno)
  /// Syncing a record failed; it is not committed, and the journal refuses further appends.
  case syncFailed(Errno)
  /// An earlier write or sync failed; reopen the journal to recover.
  case failedEarlier
  /// A payload over `JournalFormat.maxPayload` bytes.
  case payloadTooLarge(Int)
  /// The entry could not be encoded or decoded.
  case codec(String)
  /// A command `repair` could not salvage stands before records that need it.
  case lostRecord(sequence: UInt64)

  /// What a corrupt live journal is told to do; a caller whose file is not
  /// repaired in place (a closed day's archive) removes it and gives its own.
  public static let repairAdvice =
    "; run 'kiosk repair': it keeps a backup and saves every record after the damage that can still be replayed"

  public var description: String {
    switch self {
    case .cannotOpen(let path, let errno): "cannot open journal '\(path)': \(errno)"
    case .locked(let path, let holder?): "journal '\(path)' is locked by another process (pid \(holder))"
    case .locked(let path, nil): "journal '\(path)' is locked by another process"
    case .notARegularFile(let path): "'\(path)' is not a regular file"
    case .missing(let path): "there is no journal at '\(path)'"
    case .foreignRecords(let offset):
      "journal records from byte \(offset) on do not belong to its header (damaged, or copied from another "
        + "journal); refusing to read it: run 'kiosk repair', which keeps a backup and salvages every record that "
        + "still belongs to it, or restore the file from a backup"
    case .notAJournal(let path): "'\(path)' is not a kiosk journal"
    case .unsupportedVersion(let version):
      "journal format version \(version) is not supported (this kiosk reads versions 1 to 3)"
    case .unsupportedHeaderField(let value):
      "journal header's reserved field holds \(value), not 0: a format this kiosk does not read"
    case .corruptHeader(let path):
      "journal '\(path)' has a corrupt header; restore the file from a backup (the header holds the salt every "
        + "record is checked with, which repair cannot rebuild)"
    case .corruptRecord(let offset, let sequence):
      "journal is corrupt at byte \(offset) (record \(sequence)) with valid records after it" + Self.repairAdvice
    case .readFailed(let errno): "reading the journal failed: \(errno)"
    case .writeFailed(let errno): "writing the journal failed: \(errno); the command was not committed"
    case .syncFailed(let errno): "syncing the journal failed: \(errno); the command was not committed"
    case .failedEarlier: "the journal failed earlier and accepts no more appends; reopen it"
    case .payloadTooLarge(let size):
      "a journal record of \(size) bytes is over the \(JournalFormat.maxPayload)-byte limit"
    case .codec(let reason): "journal entry cannot be encoded or decoded: \(reason)"
    case .lostRecord(let sequence):
      "journal record \(sequence) was lost to damage and no checkpoint after it holds the state it led to; "
        + "restore the journal from a backup"
    }
  }
}
