import FeatureKit
import Journal

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

extension DurableStore {
  /// Writes a checkpoint now: the next open starts reading there.
  public func checkpoint() throws(DurableStoreError) {
    try checkRunning()
    try guarded { () throws(DurableStoreError) in
      try seam(.beforeCheckpoint)
      do throws(JournalError) {
        try journal.appendCheckpoint(ledger.checkpointBytes(version: journal.version))
      } catch { throw .journal(error) }
    }
  }

  /// Writes a checkpoint when the journal has grown `checkpointBytes` past the
  /// last one. A failure is kept in `lastError`: the step before it is acknowledged.
  @usableFromInline func checkpointIfDue() {
    guard journal.bytesSinceCheckpoint >= options.checkpointBytes else { return }
    do { try checkpoint() } catch { lastError = error }
  }

  /// Closes the current period (a day, a month) into a read-only archive at
  /// `archivePath` (absolute, or relative to the journal's folder), and goes
  /// on in a new journal at `path` that starts from a checkpoint of what
  /// carries over (`DurableFeature.nextPeriod(from:)`) with the same intents
  /// and undo stack, naming the period it follows (`previousPeriod`).
  ///
  /// The period's end is journaled first: a checkpoint, then its
  /// `periodClosed` record, the journal's last. Then the new journal is
  /// written whole beside the current one (`<path>.next`), the current one is
  /// renamed into the archive, and the new one into place. A crash anywhere
  /// after the end record leaves a close that `open` finishes. An archive
  /// that exists, or whose folder cannot take it, is refused before anything
  /// is written, and the period goes on.
  public func closePeriod(into archivePath: String) throws(DurableStoreError) {
    try checkRunning()
    let archive = DurablePeriods.resolve(archivePath, besideJournal: path)
    guard !DurablePeriods.ownFiles(of: path).contains(archive), access(archive, F_OK) != 0 else {
      throw .archiveExists(path: archivePath)
    }
    if let reason = DurablePeriods.cannotArchive(at: archive, journal: path) {
      throw .archiveFailed(path: archivePath, reason: reason + "; nothing was written and the period goes on")
    }
    let period = ledger.period
    try guarded { () throws(DurableStoreError) in
      do throws(JournalError) {
        try journal.appendCheckpoint(ledger.checkpointBytes(version: journal.version))
        var framed = JournalFormat.reservedFrame
        Model.Format.writeRecord(
          .periodClosed(period: period, archive: archivePath), nil, [], result: nil, version: journal.version,
          to: &framed)
        try journal.append(framed: &framed)
      } catch { throw .journal(error) }
      ledger.ended = DurablePeriodLink(period: period, archive: archivePath, lastSequence: journal.lastSequence)
      try seam(.periodEnded)
    }
    try finishClosingPeriod()
  }

  /// Finishes the close of a period whose end the journal holds (`ledger.ended`):
  /// writes the next period's journal beside it, renames the journal into
  /// its archive and the next one into place. A failure halts the store;
  /// opening it again finishes the close.
  func finishClosingPeriod() throws(DurableStoreError) {
    guard let ended = ledger.ended else { return }
    let archive = DurablePeriods.resolve(ended.archive, besideJournal: path)
    let nextPath = DurablePeriods.nextPath(of: path)
    var next = ledger
    next.state = Model.nextPeriod(from: ledger.state)
    next.period += 1
    next.previous = ended
    next.ended = nil
    try guarded { () throws(DurableStoreError) in
      DurablePeriods.remove(nextPath)
      var nextJournal = try writeNextPeriod(next, at: nextPath)
      try seam(.periodNextWritten)
      do throws(JournalError) { try journal.rename(to: archive) } catch {
        let reason = "the journal could not be renamed there (\(error)); opening the store again finishes the close"
        throw .archiveFailed(path: ended.archive, reason: reason)
      }
      chmod(archive, 0o444)
      try seam(.periodArchived)
      do throws(JournalError) { try nextJournal.rename(to: path) } catch { throw .journal(error) }
      journal = nextJournal
    }
    ledger = next
  }

  /// The next period's journal at `nextPath`, holding one checkpoint: `next`.
  private func writeNextPeriod(_ next: DurableLedger<Model>, at nextPath: String) throws(DurableStoreError)
    -> DurableJournal
  {
    do throws(JournalError) {
      var nextJournal = try DurableJournal(
        path: nextPath, lockWait: options.lockWait, newFileVersion: Model.Format.newJournalVersion)
      try nextJournal.appendCheckpoint(next.checkpointBytes(version: nextJournal.version))
      return nextJournal
    } catch { throw .journal(error) }
  }

  /// What the journal at `path` holds, read without its lock and without
  /// writing: a reader beside a running store, or an archive.
  public nonisolated static func read(at path: String, initial: Model.State) throws(DurableStoreError)
    -> DurableSnapshot<Model>
  {
    let recovery: JournalRecovery
    do { recovery = try DurableJournal.read(path: path) } catch { throw .journal(error) }
    guard Model.Format.versions.contains(recovery.version) else {
      throw .unsupportedVersion(recovery.version, path: path)
    }
    let ledger = try DurableReplay.ledger(of: Model.self, from: recovery, salt: recovery.salt, initial: initial)
    let last = recovery.count == 0 ? recovery.firstSequence - 1 : recovery.sequence(recovery.count - 1)
    return DurableSnapshot(
      state: ledger.state, openIntents: ledger.open, period: ledger.period, lastSequence: last,
      previousPeriod: ledger.previous, ended: ledger.ended)
  }
}

/// A durable store's journal as a reader found it.
public struct DurableSnapshot<Model: DurableFeature>: Sendable {
  /// The state after its last record.
  public let state: Model.State
  /// Intents journaled and not closed.
  public let openIntents: [Intent<Model.Request>]
  /// How many periods were closed before this journal's.
  public let period: Int
  /// The sequence number of its last record (0 when it has none).
  public let lastSequence: UInt64
  /// The period its period follows; nil for the first.
  public let previousPeriod: DurablePeriodLink?
  /// Its period's end, when it holds one: an archive, or a close cut short.
  public let ended: DurablePeriodLink?
}

/// The files of a period close.
enum DurablePeriods {
  /// Where the next period's journal is written before it takes `path`'s place.
  static func nextPath(of path: String) -> String { path + ".next" }

  /// The names a store keeps beside its journal at `path`, which no archive may take.
  static func ownFiles(of path: String) -> Set<String> {
    [path, nextPath(of: path), path + ".checkpoints", nextPath(of: path) + ".checkpoints"]
  }

  /// Finishes a close a crash interrupted after the journal was renamed into
  /// its archive: the next period's journal, complete, takes its place. It is
  /// opened with its lock, so a store closing its period right now (which
  /// holds it) is waited for, not overtaken. With the journal still in
  /// place, `open` removes the next one once it holds the journal's lock.
  static func finishInterruptedClose(of path: String, lockWait: Duration) throws(DurableStoreError) {
    let nextPath = nextPath(of: path)
    guard access(path, F_OK) != 0, access(nextPath, F_OK) == 0 else { return }
    do {
      var next = try DurableJournal(path: nextPath, lockWait: lockWait)
      // A close that finished while we waited for the lock renamed it already.
      guard access(path, F_OK) != 0 else { return }
      try next.rename(to: path)
    } catch { throw .journal(error) }
  }

  /// `archive` as a path: itself when absolute, else beside the journal at `journal`.
  static func resolve(_ archive: String, besideJournal journal: String) -> String {
    guard !archive.hasPrefix("/") else { return archive }
    guard let slash = journal.lastIndex(of: "/") else { return archive }
    return String(journal[...slash]) + archive
  }

  /// Why the journal at `journal` could not be renamed to `archive`, checked
  /// before its period's end is journaled: the archive's folder is missing,
  /// not writable, or on another file system (a rename cannot cross one).
  static func cannotArchive(at archive: String, journal: String) -> String? {
    let folder = archive.lastIndex(of: "/").map { String(archive[..<$0]).isEmpty ? "/" : String(archive[..<$0]) } ?? "."
    var folderStatus = stat()
    var journalStatus = stat()
    guard stat(folder, &folderStatus) == 0, (folderStatus.st_mode & S_IFMT) == S_IFDIR else {
      return "its folder \(folder) is not there"
    }
    guard access(folder, W_OK) == 0 else { return "its folder \(folder) cannot be written" }
    guard stat(journal, &journalStatus) == 0, journalStatus.st_dev == folderStatus.st_dev else {
      return "its folder \(folder) is on another file system than the journal"
    }
    return nil
  }

  /// Removes a journal and its checkpoint index when the journal is there:
  /// one `access` on the common path of `open`, where there is none.
  static func removeIfThere(_ path: String) {
    if access(path, F_OK) == 0 { remove(path) }
  }

  /// Removes a journal and its checkpoint index.
  static func remove(_ path: String) {
    unlink(path)
    unlink(path + ".checkpoints")
  }
}
