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
      try appendCheckpoint()
    }
  }

  /// Journals a checkpoint of the ledger, as the feature keeps it, and goes
  /// on from the state it kept.
  private func appendCheckpoint() throws(DurableStoreError) {
    let kept = ledger.checkpointBytes(version: journal.pointee.version, environment: environment)
    do throws(JournalError) { try journal.pointee.appendCheckpoint(kept.bytes) } catch { throw .journal(error) }
    ledger.state = kept.state
    checkpointDueAfterReplay = false
  }

  /// Writes a checkpoint when the journal has grown `checkpointBytes` past the
  /// last one. A failure is kept in `lastError`: the step before it is acknowledged.
  @usableFromInline func checkpointAfterStep() {
    guard options.checkpointsAfterSteps else { return }
    do { try checkpointIfDue() } catch { lastError = error }
  }

  /// Writes a checkpoint when one is due (`checkpointBytes`,
  /// `checkpointRecords`, `checkpointRecordsReplayed`); true when it wrote
  /// one. The store calls it after each step unless `checkpointsAfterSteps`
  /// is off: an app may call it before its next command instead, so that a
  /// checkpoint comes before the record of the command that made it due.
  @inlinable @discardableResult
  public func checkpointIfDue() throws(DurableStoreError) -> Bool {
    guard journal.pointee.bytesSinceCheckpoint >= options.checkpointBytes || checkpointRecordsDue else { return false }
    try checkpoint()
    return true
  }

  /// Whether `checkpointRecords` records, and as many bytes as the last
  /// checkpoint's, follow it; or opening replayed `checkpointRecordsReplayed`.
  @usableFromInline var checkpointRecordsDue: Bool {
    if checkpointDueAfterReplay { return true }
    guard let records = options.checkpointRecords else { return false }
    return recordsSinceCheckpoint(atLeast: records)
  }

  /// Whether `records` records (one at least), and as many bytes as the last
  /// checkpoint's, follow it.
  func recordsSinceCheckpoint(atLeast records: Int) -> Bool {
    let last = journal.pointee.lastCheckpoint
    return journal.pointee.lastSequence - (last?.sequence ?? 0) >= UInt64(max(records, 1))
      && journal.pointee.bytesSinceCheckpoint >= (last?.size ?? 0)
  }

  /// Closes the current period (a day, a month) into a read-only archive at
  /// `archivePath` (absolute, or relative to the journal's folder, on the
  /// same file system), and goes on in a new journal at `path` that starts
  /// from a checkpoint of what carries over (`DurableFeature.nextPeriod(from:)`)
  /// with the same undo stack (and no intent: a period closes with none
  /// open), naming the period it follows (`previousPeriod`).
  ///
  /// The period's end is journaled first: a checkpoint (unless the format
  /// says otherwise, `checkpointsPeriodEnd`), then its `periodClosed`
  /// record, the journal's last. Then the new journal is
  /// written whole beside the current one (`<path>.next`), the journal gets
  /// its archive's name as a second name (a hard link), and the new one
  /// takes the journal's name (an atomic rename): `path` always names a whole
  /// journal, so a second `open` meanwhile waits for a lock and never finds
  /// none. A crash anywhere after the end record leaves a close that `open`
  /// finishes. An archive that exists, is one of the store's own files, or
  /// whose folder cannot take it, is refused before anything is written, and
  /// the period goes on; so is a close while an intent is open
  /// (`intentsOpen`): its outcome belongs to this period.
  public func closePeriod(into archivePath: String) throws(DurableStoreError) {
    try checkRunning()
    // A request's outcome belongs to the period that asked for it.
    if !ledger.open.isEmpty { throw .intentsOpen(keys: ledger.open.map(\.key)) }
    let archive = DurablePeriods.resolve(archivePath, besideJournal: path)
    var taken = stat()
    guard !DurablePeriods.isOwnFile(archive, of: path, companions: Model.Format.companionSuffixes),
      lstat(archive, &taken) != 0
    else {
      throw .archiveExists(path: archivePath)
    }
    if let reason = DurablePeriods.cannotArchive(
      at: archive, journal: path, companions: Model.Format.companionSuffixes)
    {
      throw .archiveFailed(path: archivePath, reason: reason + "; nothing was written and the period goes on")
    }
    let period = ledger.period
    try guarded { () throws(DurableStoreError) in
      if Model.Format.checkpointsPeriodEnd { try appendCheckpoint() }
      try appendRecord(.periodClosed(period: period, archive: archivePath), nil, [], result: nil)
      ledger.ended = DurablePeriodLink(period: period, archive: archivePath, lastSequence: journal.pointee.lastSequence)
      try seam(.periodEnded)
    }
    try finishClosingPeriod()
  }

  /// Finishes the close of a period whose end the journal holds (`ledger.ended`):
  /// writes the next period's journal beside it, gives the journal its
  /// archive's name too, and renames the next one into the journal's place.
  /// A failure halts the store; opening it again finishes the close.
  func finishClosingPeriod() throws(DurableStoreError) {
    guard let ended = ledger.ended else { return }
    let archive = DurablePeriods.resolve(ended.archive, besideJournal: path)
    let nextPath = DurablePeriods.nextPath(of: path)
    var next = ledger
    next.period += 1
    next.previous = ended
    next.ended = nil
    next.state = Model.checkpointing(Model.nextPeriod(from: ledger.state), opensPeriod: true, environment: environment)
    try guarded { () throws(DurableStoreError) in
      DurablePeriods.remove(nextPath)
      var nextJournal = try writeNextPeriod(next, at: nextPath)
      try seam(.periodNextWritten)
      // An archive ends with its last record: the zeros written ahead go first.
      do throws(JournalError) { try journal.pointee.cutSpaceAhead() } catch { throw .journal(error) }
      if let reason = DurablePeriods.addArchiveName(archive, to: path) {
        throw .archiveFailed(
          path: ended.archive, reason: "\(reason); once it can be, opening the store again finishes the close")
      }
      try seam(.periodArchived)
      // The journal's checkpoint index, and what the app derives from the
      // journal, go with its archive (best effort: each can be derived again).
      for suffix in [".checkpoints"] + Model.Format.companionSuffixes { rename(path + suffix, archive + suffix) }
      do throws(JournalError) { try nextJournal.rename(to: path) } catch { throw .journal(error) }
      chmod(archive, 0o444)
      journalBox.replace(with: nextJournal)
    }
    ledger = next
    // The next period opens with a checkpoint: nothing to replay.
    checkpointDueAfterReplay = false
  }

  /// The next period's journal at `nextPath`, holding one checkpoint: `next`,
  /// opening the period, in the version the format gives it.
  private func writeNextPeriod(_ next: DurableLedger<Model>, at nextPath: String) throws(DurableStoreError)
    -> DurableJournal
  {
    let opening = next.checkpoint(opensPeriod: true)
    let version = Model.Format.nextPeriodVersion(opening: opening)
    precondition(
      Model.Format.versions.contains(version),
      "\(Model.Format.self) begins a period in version \(version), which it does not read")
    do throws(JournalError) {
      var nextJournal = try DurableJournal(path: nextPath, lockWait: options.lockWait, newFileVersion: version)
      try nextJournal.appendCheckpoint(Model.Format.writeCheckpoint(opening, version: nextJournal.version))
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
    try refuseUnreadable(recovery.version, at: path)
    let ledger = try DurableReplay.ledger(of: Model.self, from: recovery, salt: recovery.salt, initial: initial)
    let last = recovery.count == 0 ? recovery.firstSequence - 1 : recovery.sequence(recovery.count - 1)
    return DurableSnapshot(
      state: ledger.state, openIntents: ledger.open, period: ledger.period, lastSequence: last,
      previousPeriod: ledger.previous, ended: ledger.ended, salt: recovery.salt)
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
  /// The journal's salt, which its intent keys are made from.
  public let salt: UInt64
}

/// The files of a period close.
enum DurablePeriods {
  /// Where the next period's journal is written before it takes `path`'s place.
  static func nextPath(of path: String) -> String { path + ".next" }

  /// The names a store keeps beside its journal at `path` (with the files
  /// its format derives from it, `companions`), which no archive may take.
  static func ownFiles(of path: String, companions: [String] = []) -> Set<String> {
    Set([path, nextPath(of: path)].flatMap { journal in [journal, journal + ".checkpoints"] })
      .union(companions.map { path + $0 })
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

  /// Whether `archive` (a path `resolve` gave) names the journal at `path`,
  /// its next period's, or their checkpoint indexes, however it is spelled
  /// (`./`, `..`, a linked folder): compared by folder, resolved, and name.
  static func isOwnFile(_ archive: String, of path: String, companions: [String] = []) -> Bool {
    let own = ownFiles(of: path, companions: companions)
    if own.contains(archive) { return true }
    guard let spelled = resolvedFolder(of: archive) else { return false }
    return own.contains { resolvedFolder(of: $0) == spelled }
  }

  /// Whether the archive `archive` (as a period's end names it) is the
  /// journal at `path` itself, however either is spelled.
  static func isSameName(_ archive: String, as path: String) -> Bool {
    let resolved = resolve(archive, besideJournal: path)
    return resolved == path || (resolvedFolder(of: resolved).map { $0 == resolvedFolder(of: path) } ?? false)
  }

  /// The path with its folder resolved (links, `.`, `..`) and its name as
  /// given; nil when the folder is not there.
  static func resolvedFolder(of path: String) -> String? {
    let folder = folder(of: path)
    let name = path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
    guard let resolved = realpath(folder, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved) + "/" + name
  }

  /// Gives the journal at `journal` the second name `archive` (a hard link,
  /// the folder synced); nil when done, or when `archive` already names the
  /// same file (a close finished again); else why not.
  static func addArchiveName(_ archive: String, to journal: String) -> String? {
    if link(journal, archive) != 0 {
      let failure = errno
      var one = stat()
      var two = stat()
      let same =
        stat(journal, &one) == 0 && stat(archive, &two) == 0 && one.st_dev == two.st_dev && one.st_ino == two.st_ino
      guard failure == EEXIST, same else {
        return "the journal could not be linked there (\(String(cString: strerror(failure))))"
      }
    }
    let folder = folder(of: archive)
    let descriptor = open(folder, O_RDONLY | O_DIRECTORY)
    guard descriptor >= 0 else { return "its folder could not be opened to sync it" }
    defer { close(descriptor) }
    return fsync(descriptor) == 0 ? nil : "its folder could not be synced"
  }

  /// The version in the header of the journal at `path`, read without
  /// opening it to write; nil when there is no file or no whole header.
  static func headerVersion(at path: String) -> UInt16? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var header = [UInt8](repeating: 0, count: 6)
    let count = header.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    guard count == header.count, Array(header[0..<4]) == JournalFormat.magic else { return nil }
    let version = UInt16(header[4]) | UInt16(header[5]) << 8
    // A version no journal has is a damaged header, which opening reports as such.
    return JournalFormat.readableVersions.contains(version) ? version : nil
  }

  /// The folder `path` names a file in: `.` for a bare name, `/` for one at the root.
  static func folder(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return path[..<slash].isEmpty ? "/" : String(path[..<slash])
  }

  /// `archive` as a path: itself when absolute, else beside the journal at `journal`.
  static func resolve(_ archive: String, besideJournal journal: String) -> String {
    guard !archive.hasPrefix("/") else { return archive }
    guard let slash = journal.lastIndex(of: "/") else { return archive }
    return String(journal[...slash]) + archive
  }

  /// Why the journal at `journal` could not be given the name `archive`,
  /// checked before its period's end is journaled: the archive's folder is
  /// missing, not writable, on another file system, or takes no hard link
  /// (a probe is linked there and removed), or the archive's name leaves no
  /// room for the files that go with it (its checkpoint index, `companions`).
  static func cannotArchive(at archive: String, journal: String, companions: [String] = []) -> String? {
    let folder = folder(of: archive)
    var folderStatus = stat()
    var journalStatus = stat()
    guard stat(folder, &folderStatus) == 0, (folderStatus.st_mode & S_IFMT) == S_IFDIR else {
      return "its folder \(folder) is not there"
    }
    guard access(folder, W_OK) == 0 else { return "its folder \(folder) cannot be written" }
    guard stat(journal, &journalStatus) == 0, journalStatus.st_dev == folderStatus.st_dev else {
      return "its folder \(folder) is on another file system than the journal"
    }
    if let roomless = nameWithoutRoom(archive, among: [".checkpoints"] + companions) {
      return "its \(roomless.whole ? "path" : "name") is \(roomless.bytes) bytes, and the files that go with it "
        + "have \(roomless.whole ? "paths" : "names") up to \(roomless.longest.utf8.count) bytes longer "
        + "(\(roomless.whole ? "PATH" : "NAME")\(roomless.longest)), over the \(roomless.limit) bytes "
        + (roomless.whole ? "the system takes for a path" : "its folder takes for a name")
    }
    // The room left for ".checkpoints" holds this name too.
    let probe = archive + ".link-probe"
    unlink(probe)
    guard link(journal, probe) == 0 else {
      return "its folder \(folder) takes no hard link (\(String(cString: strerror(errno))))"
    }
    unlink(probe)
    return nil
  }

  /// The longest of `suffixes`, when `path` with it is a name longer than
  /// its folder takes (`NAME_MAX`), or a path longer than the system takes
  /// (`PATH_MAX`): which (`whole`, the path), its length and that limit.
  /// Nil when every one fits; a folder that is not there is not asked.
  static func nameWithoutRoom(_ path: String, among suffixes: [String])
    -> (whole: Bool, bytes: Int, longest: String, limit: Int)?
  {
    guard let longest = suffixes.max(by: { $0.utf8.count < $1.utf8.count }) else { return nil }
    let extra = longest.utf8.count
    // PATH_MAX counts the terminating zero.
    let pathLimit = Int(PATH_MAX) - 1
    if path.utf8.count + extra > pathLimit { return (true, path.utf8.count, longest, pathLimit) }
    let limit = pathconf(folder(of: path), Int32(_PC_NAME_MAX))
    let bytes = path.utf8.reversed().prefix { $0 != UInt8(ascii: "/") }.count
    guard limit > 0, bytes + extra > limit else { return nil }
    return (false, bytes, longest, limit)
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
