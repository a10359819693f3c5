import Journal
import KioskCommands
import Synchronization

/// The day's settled-tabs file (`SettledTabsFile`) as the till on the
/// durable store writes it: the store's environment holds it
/// (`KioskTill.Services`), and each checkpoint brings it up to date, syncs
/// it, and records where it stands (`KioskTill.checkpointing`), as the
/// kiosk's checkpoints do.
///
/// The till's state keeps the entries its records made since the last
/// checkpoint (`KioskTill.State.settledSinceCheckpoint`; replay makes them
/// again), so the file needs writing only when a checkpoint is about to
/// vouch for it: a reader takes the file up to a checkpoint's mark and
/// replays the records after it, and so never reads past the mark.
public final class SettledTabsWriter: Sendable {
  private struct File: ~Copyable {
    /// The day's file; nil before `open` and once the day it was opened for closed.
    var log: DerivedLog?
    /// How many of the entries since the last checkpoint the file holds already (a rebuild wrote them).
    var written = 0
  }

  private let file = Mutex(File())

  /// A writer with no file open yet: `open` opens the day's.
  public init() {}

  /// Opens the file beside `journal` (salted `salt`) for a day whose last
  /// checkpoint vouched for `mark` (nil: for nothing) and whose records since
  /// made `pending` entries: keeps what the mark vouches for, or, when the
  /// file does not hold it, writes every entry of the day again from
  /// `rebuild` (the pending ones included). Returns whether it rebuilt: the
  /// next checkpoint then vouches for the file again. A file that cannot be
  /// opened, or a day that cannot be replayed, leaves the file behind: no
  /// checkpoint vouches for it, and readers list from the journal.
  @discardableResult
  public func open(
    journal: String, salt: UInt64, keeping mark: DerivedLog.Mark?, pending: Int,
    rebuild: () throws -> [SettledTabsEntry]
  ) -> Bool {
    file.withLock { file in
      var log = DerivedLog(path: SettledTabsFile.path(besideJournal: journal), salt: salt, keeping: mark ?? .empty)
      var rebuilt = false
      file.written = 0
      if log.mark != nil, mark == nil || !log.kept {
        if let entries = try? rebuild() {
          for entry in entries { log.append(SettledTabsFile.payload(of: entry)) }
          (file.written, rebuilt) = (pending, true)
        } else {
          log.abandon()
        }
      }
      file.log = consume log
      return rebuilt
    }
  }

  /// Appends the entries of `pending` (the entries since the last
  /// checkpoint) the file does not hold yet, syncs it, and returns where its
  /// entries end; nil when no file is open or it is behind.
  func bringUpToDate(_ pending: [SettledTabsEntry]) -> DerivedLog.Mark? {
    file.withLock { file in Self.bringUpToDate(&file, pending) }
  }

  /// Brings the file up to date with `pending` for a checkpoint, which
  /// records the mark returned and starts the entries since it afresh.
  func checkpoint(_ pending: [SettledTabsEntry]) -> DerivedLog.Mark? {
    file.withLock { file in
      let mark = Self.bringUpToDate(&file, pending)
      file.written = 0
      return mark
    }
  }

  private static func bringUpToDate(_ file: inout File, _ pending: [SettledTabsEntry]) -> DerivedLog.Mark? {
    guard var log = file.log.take() else { return nil }
    for entry in pending.dropFirst(file.written) { log.append(SettledTabsFile.payload(of: entry)) }
    file.written = pending.count
    let mark = log.synchronized()
    file.log = consume log
    return mark
  }

  /// Lets the day's file go: its day closed, and it goes with the archive.
  func close() {
    file.withLock { file in
      _ = file.log.take()
      file.written = 0
    }
  }
}
