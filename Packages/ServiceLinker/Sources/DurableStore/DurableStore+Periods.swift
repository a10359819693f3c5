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
  /// `archivePath`, and goes on in a new journal at `path` that starts from a
  /// checkpoint of the same state, intents and undo stack.
  ///
  /// The new journal is written whole beside the current one (`<path>.next`)
  /// before the current one is renamed into the archive, and renamed into
  /// place last: a crash between those leaves files that `open` puts right.
  public func closePeriod(into archivePath: String) throws(DurableStoreError) {
    try checkRunning()
    let nextPath = DurablePeriods.nextPath(of: path)
    guard !DurablePeriods.ownFiles(of: path).contains(archivePath), access(archivePath, F_OK) != 0 else {
      throw .archiveExists(path: archivePath)
    }
    DurablePeriods.remove(nextPath)
    var next = ledger
    next.period += 1
    var nextJournal = try writeNextPeriod(next, at: nextPath)
    try guarded { () throws(DurableStoreError) in try seam(.periodNextWritten) }
    do throws(JournalError) { try journal.rename(to: archivePath) } catch {
      if case .cannotOpen(let target, let errno) = error, target == archivePath {
        // Nothing was renamed: the period goes on in the journal, whose
        // end-of-period checkpoint is just a checkpoint.
        DurablePeriods.remove(nextPath)
        throw .archiveFailed(path: archivePath, reason: "the journal could not be renamed there (\(errno))")
      }
      failure = failure ?? .journal(error)
      throw .journal(error)
    }
    chmod(archivePath, 0o444)
    try guarded { () throws(DurableStoreError) in
      try seam(.periodArchived)
      do throws(JournalError) { try nextJournal.rename(to: path) } catch { throw .journal(error) }
    }
    journal = nextJournal
    ledger = next
  }

  /// Closes the current journal with a checkpoint of the period's end, and
  /// writes the next period's journal at `nextPath`, starting from `next`.
  private func writeNextPeriod(_ next: DurableLedger<Model>, at nextPath: String) throws(DurableStoreError)
    -> DurableJournal
  {
    do throws(JournalError) {
      try journal.appendCheckpoint(ledger.checkpointBytes(version: journal.version))
      var nextJournal = try DurableJournal(
        path: nextPath, lockWait: options.lockWait, newFileVersion: Model.Format.newJournalVersion)
      try nextJournal.appendCheckpoint(next.checkpointBytes(version: nextJournal.version))
      return nextJournal
    } catch {
      failure = failure ?? .journal(error)
      throw .journal(error)
    }
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
    return DurableSnapshot(state: ledger.state, openIntents: ledger.open, period: ledger.period, lastSequence: last)
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
