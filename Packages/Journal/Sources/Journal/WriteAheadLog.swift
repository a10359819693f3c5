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

/// A crash-safe, append-only journal of records: framed, checksummed, synced.
///
/// `~Copyable` because it owns a file descriptor and the file's lock: a
/// duplicated handle would be a bug, and the type system refuses it.
///
/// - Opening recovers: every valid record is kept; a torn tail is truncated and
///   counted in `recovery.droppedBytes`; a bad record followed by valid ones is
///   refused with `corruptRecord` (see `repair`).
/// - The writer holds an exclusive `flock` for its whole life. Opening waits
///   up to `lockWait` for a lock another holder has, then fails with `locked`:
///   a `flock` belongs to the open file description, and a child process that
///   is between `fork` and `exec` holds a copy of it for a moment, even with
///   `O_CLOEXEC`, so a writer that closes and reopens must not fail on that
///   moment (docs/journal.md, "Locking").
/// - `append` returns only after the record is written and `fdatasync`
///   returned. A failed write or sync is reported, the tail is cut back
///   (best effort), and the journal refuses further appends: no silent retry.
///
/// Generic over the environment that supplies its system calls: the journal
/// uses the Service Linker pattern for its own I/O. Production links the real
/// calls (`DurableJournal`); fault tests store a faulty `JournalFileIO` instead.
public struct WriteAheadLog<Environment: HasJournalIO>: ~Copyable {
  private let environment: Environment
  private var io: Environment.JournalIOImpl { environment.fileIO }
  private let descriptor: Int32
  private let seed: UInt32
  /// One encoder for the journal's life: making one costs more than encoding a record.
  let encoder = makeEncoder()

  /// The journal's JSON encoding: sorted keys, so the same entry is the same bytes.
  static func makeEncoder() -> JSONEncoder { JournalJSONWriter.makeEncoder() }
  /// The journal file.
  public private(set) var path: String
  /// The random salt in the journal's header: tells this journal from any other.
  public let salt: UInt64
  /// The format version in the journal's header: the one it was created
  /// with, which every later writer keeps, so a file's payloads are in one form.
  public let version: UInt16
  /// What opening found.
  public let recovery: JournalRecovery
  /// The sequence number of the last committed record (0 when empty).
  public private(set) var lastSequence: UInt64
  /// The file size after the last committed record.
  private var end: Int
  /// The file's size: `end`, then the zeros written ahead of it (docs/journal.md, "Space ahead").
  private var allocated: Int
  /// How many zero bytes the next extension writes ahead: doubled each time, up to `maximumAhead`.
  private var nextAhead = minimumAhead
  /// Commits by this handle: its first writes no space ahead, since a process
  /// that appends one record (a till command) would only write zeros to cut them again.
  private var commits = 0
  /// The first extension's zeros.
  static var minimumAhead: Int { 64 << 10 }
  /// The largest extension's zeros.
  static var maximumAhead: Int { 4 << 20 }
  /// Set by a failed write or sync; appends are refused from then on.
  public private(set) var hasFailed = false
  /// The last checkpoint in the file, when opening read it or this handle wrote it.
  public private(set) var lastCheckpoint: CheckpointMark?

  /// The file's size after the last committed record.
  public var size: Int { end }

  /// Bytes of records after the last checkpoint (after the header when there
  /// is none): what a writer that checkpoints by size compares.
  public var bytesSinceCheckpoint: Int { end - (lastCheckpoint?.end ?? JournalFormat.headerSize) }

  /// Where the next record will be: a later open `from` it reads only what
  /// is appended after now.
  public var endAnchor: JournalAnchor { JournalAnchor(offset: end, sequence: lastSequence + 1, salt: salt) }

  /// How long opening waits for the lock by default before it reports `locked`.
  public static var defaultLockWait: Duration { .seconds(2) }

  /// Opens the journal at `path`, creating it when missing, and recovers it.
  /// Waits up to `lockWait` for another holder to release the file's lock.
  ///
  /// When the checkpoint index points at a valid checkpoint, only the file
  /// from that checkpoint on is read and recovered; otherwise the whole file.
  /// With `anchor`, the file is read from there instead when the anchor holds
  /// (`JournalAnchor`), and the records before it are neither read nor checked.
  /// A file created (or given a fresh header) gets `newFileVersion`; an
  /// existing one keeps the version it has.
  public init(
    path: String, environment: Environment, lockWait: Duration = defaultLockWait, from anchor: JournalAnchor? = nil,
    newFileVersion: UInt16 = JournalFormat.version
  ) throws(JournalError) {
    precondition(JournalFormat.readableVersions.contains(newFileVersion), "no journal version \(newFileVersion)")
    let io = environment.fileIO
    let (descriptor, created) = try Self.openLocked(path, io: io, wait: lockWait)
    do throws(JournalError) {
      var loaded: LoadedFile
      var dropped = 0
      var tornHeaderCopy: String?
      var wroteFreshHeader = false
      if let anchor, let anchored = try Self.load(descriptor, from: anchor, path: path, io: io) {
        loaded = anchored
      } else if let anchored = try Self.loadFromCheckpoint(descriptor, path: path, io: io) {
        loaded = anchored
      } else {
        var bytes = try Self.readAll(descriptor, io: io)
        if bytes.count < JournalFormat.headerSize {
          // Nothing past a torn header can be a record: write a fresh one.
          guard bytes.allSatisfy({ $0 == 0 }) || JournalFormat.magic.starts(with: bytes.prefix(4)) else {
            throw JournalError.notAJournal(path: path)
          }
          dropped = bytes.count
          if dropped > 0 { tornHeaderCopy = try Self.saveCopy(of: bytes, besides: path, suffix: "torn-tail", io: io) }
          bytes = JournalFormat.header(salt: UInt64.random(in: 1...UInt64.max), version: newFileVersion)
          wroteFreshHeader = true
          try Self.writeAll(bytes, at: 0, descriptor, io: io)
          if case .failure(let errno) = io.truncate(descriptor, to: bytes.count) {
            throw JournalError.writeFailed(errno)
          }
          if case .failure(let errno) = io.synchronizeData(descriptor) { throw JournalError.syncFailed(errno) }
          if created { try Self.synchronizeDirectory(of: path, io: io) }
        }
        loaded = try LoadedFile(wholeFile: bytes, path: path)
        // A full scan that found checkpoints the index does not list: list them.
        let found = loaded.checkpoints
        if !found.isEmpty {
          CheckpointIndex.write(found, besides: path, seed: loaded.seed, replacing: true, io: io)
        }
      }
      let scan = loaded.scan
      var savedTailPath = tornHeaderCopy
      // Zeros after the last record are space a writer wrote ahead: kept, and written over.
      var allocated = loaded.base + loaded.bytes.count
      if scan.firstBad != nil {
        try Self.refuseCorruption(scan, firstSequence: loaded.firstSequence)
        let torn = scan.tornBytes(of: loaded.bytes.count)
        dropped += torn
        // Keep what is cut, beside the journal, before cutting it (the zeros after it are not kept).
        savedTailPath = try Self.saveCopy(
          of: Array(loaded.bytes[scan.goodEnd..<scan.goodEnd + torn]), besides: path, suffix: "torn-tail", io: io)
        if case .failure(let errno) = io.truncate(descriptor, to: loaded.base + scan.goodEnd) {
          throw JournalError.writeFailed(errno)
        }
        if case .failure(let errno) = io.synchronizeData(descriptor) { throw JournalError.syncFailed(errno) }
        allocated = loaded.base + scan.goodEnd
      }
      loaded.bytes.removeSubrange(scan.goodEnd...)
      self.environment = environment
      self.descriptor = descriptor
      self.seed = loaded.seed
      self.path = path
      self.salt = loaded.salt
      self.version = loaded.version
      self.end = loaded.base + loaded.bytes.count
      self.allocated = allocated
      self.lastSequence = loaded.firstSequence - 1 + UInt64(scan.frames.count)
      self.lastCheckpoint = loaded.lastCheckpointMark
      var recovery = JournalRecovery(
        bytes: loaded.bytes, frames: scan.frames, firstSequence: loaded.firstSequence, droppedBytes: dropped,
        created: created)
      recovery.startedAtCheckpoint = loaded.base > 0
      recovery.salt = loaded.salt
      recovery.version = loaded.version
      recovery.savedTailPath = savedTailPath
      recovery.startedFresh = created || wroteFreshHeader
      self.recovery = recovery
    } catch {
      io.close(descriptor)
      throw error
    }
  }

  /// Cuts the space written ahead (best effort: a reader takes zeros for the
  /// end anyway), so a journal at rest ends with its last record.
  deinit {
    if allocated > end { _ = io.truncate(descriptor, to: end) }
    io.close(descriptor)
  }

  /// Appends one record and syncs it; returns its sequence number.
  @discardableResult
  public mutating func append(_ payload: [UInt8]) throws(JournalError) -> UInt64 {
    try append(batch: [payload]).upperBound
  }

  /// Appends a checkpoint record (the whole state, in the caller's encoding)
  /// and syncs it, then lists it in the checkpoint index so that the next open
  /// starts there. Returns its sequence number.
  @discardableResult
  public mutating func appendCheckpoint(_ payload: [UInt8]) throws(JournalError) -> UInt64 {
    let offset = end
    let sequence = try append(batch: [payload], type: JournalFormat.checkpointType).upperBound
    lastCheckpoint = CheckpointMark(sequence: sequence, offset: offset, size: payload.count)
    CheckpointIndex.write(
      [CheckpointIndex.Entry(offset: offset, sequence: sequence)], besides: path, seed: seed, replacing: false, io: io)
    return sequence
  }

  /// Appends `count` placeholders for records lost to damage (`LostRecord`)
  /// with one sync, so their sequence numbers are never given to another
  /// record: a ledger whose references are its sequence numbers retires the
  /// number of an entry it cut as a torn tail this way (`LocalProcessor`).
  @discardableResult
  public mutating func appendLost(_ count: Int, standingFor record: LostRecord = .unknown)
    throws(JournalError) -> ClosedRange<UInt64>
  {
    let type: UInt8 =
      switch record {
      case .command: JournalFormat.commandType
      case .checkpoint: JournalFormat.checkpointType
      case .unknown: 0
      }
    return try append(batch: Array(repeating: [type], count: count), type: JournalFormat.lostType)
  }

  /// Group commit: appends every payload with one write and one sync, all or
  /// none acknowledged. Returns their sequence numbers.
  @discardableResult
  public mutating func append(batch payloads: [[UInt8]]) throws(JournalError) -> ClosedRange<UInt64> {
    try append(batch: payloads, type: JournalFormat.commandType)
  }

  private mutating func append(batch payloads: [[UInt8]], type: UInt8) throws(JournalError) -> ClosedRange<UInt64> {
    guard !hasFailed else { throw .failedEarlier }
    guard !payloads.isEmpty else { return lastSequence + 1...lastSequence }
    var frames: [UInt8] = []
    frames.reserveCapacity(payloads.reduce(0) { $0 + $1.count + JournalFormat.frameSize })
    for (index, payload) in payloads.enumerated() {
      guard payload.count <= JournalFormat.maxPayload(ofType: type) ?? 0 else { throw .payloadTooLarge(payload.count) }
      JournalFormat.appendRecord(
        payload, sequence: lastSequence + 1 + UInt64(index), seed: seed, type: type, to: &frames)
    }
    return try write(frames, count: payloads.count)
  }

  /// Appends one command record whose payload follows `JournalFormat.frameSize`
  /// reserved bytes in `frame` (`JournalFormat.reservedFrame`, or
  /// `JournalJSONWriter.reservingFrame(version:)`): framed in place and
  /// written with one sync, so a command's bytes are never copied. Returns
  /// its sequence number. `frame` holds the framed record afterwards.
  @discardableResult
  public mutating func append(framed frame: inout [UInt8]) throws(JournalError) -> UInt64 {
    precondition(frame.count >= JournalFormat.frameSize, "a framed record starts with the frame's reserved bytes")
    guard !hasFailed else { throw .failedEarlier }
    let payloadCount = frame.count - JournalFormat.frameSize
    guard payloadCount <= JournalFormat.maxPayload else { throw .payloadTooLarge(payloadCount) }
    JournalFormat.frameRecord(
      in: &frame, at: 0, sequence: lastSequence + 1, seed: seed, type: JournalFormat.commandType)
    return try write(frame, count: 1).upperBound
  }

  /// Writes `count` framed records at the end and syncs them, all or none acknowledged.
  private mutating func write(_ frames: [UInt8], count: Int) throws(JournalError) -> ClosedRange<UInt64> {
    let newEnd = end + frames.count
    if newEnd > allocated, commits > 0 { writeZerosAhead(through: newEnd) }
    do throws(JournalError) {
      try Self.writeAll(frames, at: end, descriptor, io: io)
      if case .failure(let errno) = io.synchronizeData(descriptor) { throw JournalError.syncFailed(errno) }
    } catch {
      // The record may be partly on disk: cut it off if we can, and refuse
      // everything from now on, since the page cache can no longer be trusted.
      _ = io.truncate(descriptor, to: end)
      allocated = end
      hasFailed = true
      throw error
    }
    end = newEnd
    allocated = max(allocated, end)
    commits += 1
    let first = lastSequence + 1
    lastSequence += UInt64(count)
    return first...lastSequence
  }

  /// Writes zeros from the file's end to past `newEnd`, so that the commits
  /// after this one write over space written before: their `fdatasync` then
  /// carries no new file length, which on ext4 halves a commit (docs/journal.md,
  /// "Space ahead"). The zeros cover the record about to be written too, so
  /// when they fit, the record does: the zeros never take a full disk's last
  /// room from it. The sync of the record makes the zeros durable with it.
  /// Best effort: when they cannot be written (a full disk), the file is cut
  /// back to its size and the record is appended as it would have been.
  private mutating func writeZerosAhead(through newEnd: Int) {
    let page = 4096
    let target = (newEnd + nextAhead + page - 1) / page * page
    do throws(JournalError) {
      try Self.writeAll([UInt8](repeating: 0, count: target - allocated), at: allocated, descriptor, io: io)
      allocated = target
      nextAhead = min(nextAhead * 2, Self.maximumAhead)
    } catch {
      _ = io.truncate(descriptor, to: allocated)
    }
  }

  /// Cuts the space written ahead, durably: the file ends with its last record
  /// again. `rename(to:)` does it first; call it before the file gets another
  /// name any other way (`link`, as the kiosk's close of the day archives it).
  public mutating func cutSpaceAhead() throws(JournalError) {
    guard allocated > end else { return }
    if case .failure(let errno) = io.truncate(descriptor, to: end) { throw .writeFailed(errno) }
    if case .failure(let errno) = io.synchronizeData(descriptor) { throw .syncFailed(errno) }
    allocated = end
  }

  /// Gives the journal file the name `newPath` (replacing any file there) in
  /// one atomic step, syncs the directory, and moves the checkpoint index with
  /// it. The handle, its lock and its records stay as they are; the space
  /// written ahead is cut first, so a file renamed into an archive ends with
  /// its last record.
  public mutating func rename(to newPath: String) throws(JournalError) {
    try cutSpaceAhead()
    guard renameFile(path, newPath) == 0 else { throw .cannotOpen(path: newPath, Errno.current) }
    try Self.synchronizeDirectory(of: newPath, io: io)
    let index = CheckpointIndex.path(besides: path)
    let newIndex = CheckpointIndex.path(besides: newPath)
    if renameFile(index, newIndex) != 0 { unlink(newIndex) }
    path = newPath
  }

  // MARK: Repair

  /// Keeps a backup copy of a damaged journal, then salvages it: each damaged
  /// stretch that valid records follow is overwritten in place by placeholder
  /// records when what comes after it can still be replayed (it held only
  /// checkpoints, or a valid checkpoint follows it); the file is cut only where
  /// it cannot be (`JournalSalvage`). Only runs when asked (`kiosk repair`).
  ///
  /// A crash while it writes leaves the backup, synced before anything is
  /// touched, and a file that a second repair salvages the same way.
  /// `recordsStandAlone`: see `JournalSalvage` (a ledger's entries).
  public static func repair(
    path: String, environment: Environment, lockWait: Duration = defaultLockWait, recordsStandAlone: Bool = false
  ) throws(JournalError) -> JournalRepair {
    let io = environment.fileIO
    let (descriptor, _) = try openLocked(path, io: io, wait: lockWait, create: false)
    defer { io.close(descriptor) }
    let bytes = try readAll(descriptor, io: io)
    let salt = try validateHeader(bytes, path: path)
    let plan = bytes.withUnsafeBytes {
      JournalSalvage($0, seed: JournalFormat.recordSeed(salt: salt), recordsStandAlone: recordsStandAlone)
    }
    guard !plan.isClean else {
      return JournalRepair(keptRecords: plan.keptRecords, droppedBytes: 0, backupPath: nil)
    }
    let backupPath = try saveCopy(of: bytes, besides: path, suffix: "corrupt", io: io)
    for stretch in plan.stretches { try writeAll(stretch.bytes, at: stretch.offset, descriptor, io: io) }
    if let cut = plan.cut, case .failure(let errno) = io.truncate(descriptor, to: cut) { throw .writeFailed(errno) }
    if case .failure(let errno) = io.synchronizeData(descriptor) { throw .syncFailed(errno) }
    // The zeros a writer wrote ahead are cut with a torn tail, but they were never a record's.
    let cutBytes = bytes.count - (plan.cut ?? bytes.count)
    let zeros = bytes.withUnsafeBytes { JournalFormat.trailingZeros(in: $0, from: plan.cut ?? bytes.count) }
    var repair = JournalRepair(keptRecords: plan.keptRecords, droppedBytes: cutBytes - zeros, backupPath: backupPath)
    repair.lost = plan.stretches.flatMap(\.lost)
    return repair
  }

  // MARK: System calls, with EINTR and short writes handled

  private static func openLocked(
    _ path: String, io: some JournalFileIO, wait: Duration, create: Bool = true, attempts: Int = 0
  ) throws(JournalError) -> (Int32, created: Bool) {
    var created = false
    var descriptor: Int32
    // O_NONBLOCK: opening a FIFO must not hang; it is refused just below.
    switch io.open(path, flags: O_RDWR | O_CLOEXEC | O_NONBLOCK, mode: 0) {
    case .success(let opened): descriptor = opened
    case .failure(let errno) where errno.code == ENOENT:
      guard create else { throw .missing(path: path) }
      switch io.open(path, flags: O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, mode: 0o644) {
      case .success(let opened):
        descriptor = opened
        created = true
      case .failure(let errno) where errno.code == EEXIST:
        // Another process created it between the two opens: open the file it
        // made. Unless it is a link to nothing, which both opens refuse forever.
        guard attempts < 100 else { throw .cannotOpen(path: path, errno) }
        return try openLocked(path, io: io, wait: wait, create: create, attempts: attempts + 1)
      case .failure(let errno): throw .cannotOpen(path: path, errno)
      }
    case .failure(let errno) where errno.code == EISDIR: throw .notARegularFile(path: path)
    case .failure(let errno): throw .cannotOpen(path: path, errno)
    }
    do throws(JournalError) {
      guard io.isRegularFile(descriptor) else { throw .notARegularFile(path: path) }
      try lock(descriptor, path: path, io: io, wait: wait)
    } catch {
      io.close(descriptor)
      throw error
    }
    // The file may have been given another name while we waited for its lock
    // (a day closed: the live journal became the archive and a new file took
    // its name): the lock that counts is the one on the file the path names now.
    guard io.isFile(descriptor, at: path) else {
      io.close(descriptor)
      return try openLocked(path, io: io, wait: wait, create: create, attempts: attempts)
    }
    return (descriptor, created)
  }

  /// Waits, up to `wait`, until no writer holds the journal at `path`, and
  /// lets its lock go again; nothing when there is no file there. For a
  /// writer that opens another file first (a ledger beside the journal): a
  /// journal held by another writer is then reported as such. Another
  /// writer may take the lock right after: opening the journal still waits.
  public static func waitForLock(path: String, environment: Environment, wait: Duration) throws(JournalError) {
    let io = environment.fileIO
    guard case .success(let descriptor) = io.open(path, flags: O_RDONLY | O_CLOEXEC | O_NONBLOCK, mode: 0) else {
      return
    }
    defer { io.close(descriptor) }
    guard io.isRegularFile(descriptor) else { return }
    try lock(descriptor, path: path, io: io, wait: wait)
  }

  /// Takes the exclusive lock, retrying every few milliseconds until `wait` has passed.
  private static func lock(_ descriptor: Int32, path: String, io: some JournalFileIO, wait: Duration)
    throws(JournalError)
  {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: wait)
    while true {
      switch io.lockExclusively(descriptor) {
      case .success: return
      case .failure(let errno) where errno.code == EINTR: continue
      case .failure(let errno) where errno.code == EWOULDBLOCK:
        guard clock.now < deadline else { throw .locked(path: path, holder: LockHolder.process(holding: descriptor)) }
        usleep(5_000)
      case .failure(let errno): throw .cannotOpen(path: path, errno)
      }
    }
  }

  /// Refuses a scan whose bad part is not a torn tail: valid records after it,
  /// or whole records of another journal.
  static func refuseCorruption(_ scan: JournalScan, firstSequence: UInt64 = 1) throws(JournalError) {
    guard let bad = scan.firstBad else { return }
    if bad.validRecordsFollow {
      throw .corruptRecord(offset: bad.offset, sequence: firstSequence + UInt64(scan.frames.count))
    }
    if scan.badPartHoldsWholeFrames { throw .foreignRecords(offset: bad.offset) }
  }

  /// Writes back records lost to damage that are known again from elsewhere
  /// (a ledger entry whose every field the till's journal holds): each
  /// placeholder whose sequence number `records` names becomes a record with
  /// that payload, its number kept. Placeholders are sized to what they
  /// replaced, so the file is written whole to `<path>.restoring`, synced, and
  /// renamed over the journal: a crash leaves the old file or the new one,
  /// never half of each. A damaged file is refused (`repair` it first).
  /// Returns the numbers written back, in file order.
  public static func restoreLost(
    path: String, environment: Environment, lockWait: Duration = defaultLockWait, records: [UInt64: [UInt8]]
  ) throws(JournalError) -> [UInt64] {
    let io = environment.fileIO
    let (descriptor, _) = try openLocked(path, io: io, wait: lockWait, create: false)
    defer { io.close(descriptor) }
    let bytes = try readAll(descriptor, io: io)
    let seed = JournalFormat.recordSeed(salt: try validateHeader(bytes, path: path))
    var rewritten = Array(bytes[..<JournalFormat.headerSize])
    var restored: [UInt64] = []
    var offset = JournalFormat.headerSize
    var count: UInt64 = 0
    while offset < bytes.count {
      let frame = bytes.withUnsafeBytes { JournalFormat.record(in: $0, at: offset, seed: seed) }
      // Zeros written ahead end the records; the file rewritten ends with its last record.
      if frame == nil,
        bytes.withUnsafeBytes({ offset + JournalFormat.trailingZeros(in: $0, from: offset) }) == bytes.count
      {
        break
      }
      guard let frame else { throw .corruptRecord(offset: offset, sequence: count + 1) }
      if frame.type == JournalFormat.lostType, let payload = records[frame.sequence] {
        JournalFormat.appendRecord(payload, sequence: frame.sequence, seed: seed, to: &rewritten)
        restored.append(frame.sequence)
      } else {
        rewritten += bytes[offset..<frame.payload.upperBound]
      }
      offset = frame.payload.upperBound
      count += 1
    }
    guard !restored.isEmpty else { return [] }
    let temporary = path + ".restoring"
    let copy: Int32
    // A leftover of a crash is removed; whatever else sits there (a link, a FIFO) is never written through.
    unlink(temporary)
    switch io.open(temporary, flags: O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode: 0o644) {
    case .success(let opened): copy = opened
    case .failure(let errno): throw .cannotOpen(path: temporary, errno)
    }
    do throws(JournalError) {
      try writeAll(rewritten, at: 0, copy, io: io)
      if case .failure(let errno) = io.synchronizeData(copy) { throw .syncFailed(errno) }
    } catch {
      io.close(copy)
      unlink(temporary)
      throw error
    }
    io.close(copy)
    guard renameFile(temporary, path) == 0 else {
      let failure = Errno.current
      unlink(temporary)
      throw .writeFailed(failure)
    }
    try synchronizeDirectory(of: path, io: io)
    return restored
  }

  /// Writes `bytes` to a new file `<path>.<suffix>` (`.<suffix>.2`, … when
  /// taken), syncs it and its directory, and returns its path.
  private static func saveCopy(of bytes: [UInt8], besides path: String, suffix: String, io: some JournalFileIO)
    throws(JournalError) -> String
  {
    var copyPath = "\(path).\(suffix)"
    var attempt = 1
    var copy: Int32 = -1
    while copy < 0 {
      switch io.open(copyPath, flags: O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode: 0o644) {
      case .success(let opened): copy = opened
      case .failure(let errno) where errno.code == EEXIST:
        attempt += 1
        copyPath = "\(path).\(suffix).\(attempt)"
      case .failure(let errno): throw .cannotOpen(path: copyPath, errno)
      }
    }
    defer { io.close(copy) }
    try writeAll(bytes, at: 0, copy, io: io)
    if case .failure(let errno) = io.synchronizeData(copy) { throw .syncFailed(errno) }
    try synchronizeDirectory(of: path, io: io)
    return copyPath
  }

  // MARK: Reading without writing

  /// Reads the journal at `path` as a reader: no lock, no write, no truncation.
  /// A torn tail (or an append in flight) is left in place and not read; its
  /// size is `droppedBytes`. Corruption is refused exactly as a writer refuses it.
  ///
  /// With `end`, the file is read as it stood when it was `end` bytes long: a
  /// reader that must agree with another read of the same file (`kiosk
  /// verify`) gives both the one `end` it took first, and appends after it
  /// are not seen (`CappedFileIO`).
  public static func read(path: String, environment: Environment, endingAt end: Int? = nil) throws(JournalError)
    -> JournalRecovery
  {
    guard let end else { return try read(path: path, io: environment.fileIO) }
    return try read(path: path, io: CappedFileIO(environment.fileIO, path: path, end: end))
  }

  private static func read(path: String, io: some JournalFileIO) throws(JournalError) -> JournalRecovery {
    do {
      return try readOnce(path: path, io: io)
    } catch .corruptRecord, .foreignRecords {
      // A writer fills zeros it wrote ahead while this reader copies the file:
      // a copy can hold zeros where a record has since landed, then records
      // after it. Only a second read that finds the same is corruption.
      return try readOnce(path: path, io: io)
    }
  }

  private static func readOnce(path: String, io: some JournalFileIO) throws(JournalError) -> JournalRecovery {
    let descriptor: Int32
    switch io.open(path, flags: O_RDONLY | O_CLOEXEC | O_NONBLOCK, mode: 0) {
    case .success(let opened): descriptor = opened
    case .failure(let errno) where errno.code == ENOENT: throw .missing(path: path)
    case .failure(let errno): throw .cannotOpen(path: path, errno)
    }
    defer { io.close(descriptor) }
    guard io.isRegularFile(descriptor) else { throw .notARegularFile(path: path) }
    var loaded: LoadedFile
    if let anchored = try loadFromCheckpoint(descriptor, path: path, io: io) {
      loaded = anchored
    } else {
      let bytes = try readAll(descriptor, io: io)
      if bytes.count < JournalFormat.headerSize {
        // A journal whose creation was cut short: no record yet.
        guard bytes.allSatisfy({ $0 == 0 }) || JournalFormat.magic.starts(with: bytes.prefix(4)) else {
          throw .notAJournal(path: path)
        }
        return JournalRecovery(bytes: [], frames: [], firstSequence: 1, droppedBytes: bytes.count, created: false)
      }
      loaded = try LoadedFile(wholeFile: bytes, path: path)
    }
    try refuseCorruption(loaded.scan, firstSequence: loaded.firstSequence)
    // Zeros written ahead are not a tail left unread.
    let ignored = loaded.scan.tornBytes(of: loaded.bytes.count)
    loaded.bytes.removeSubrange(loaded.scan.goodEnd...)
    var recovery = JournalRecovery(
      bytes: loaded.bytes, frames: loaded.scan.frames, firstSequence: loaded.firstSequence, droppedBytes: ignored,
      created: false)
    recovery.startedAtCheckpoint = loaded.base > 0
    recovery.salt = loaded.salt
    recovery.version = loaded.version
    return recovery
  }

  // MARK: Reading from a checkpoint

  /// The file from `anchor` on, when it holds: the file has the anchor's
  /// salt, and the frame at its offset is a whole record with its sequence
  /// number, or the file ends exactly there (nothing appended since). Nil
  /// otherwise (a file cut back, restored from an older copy, or another
  /// one): the caller reads it another way.
  static func load(_ descriptor: Int32, from anchor: JournalAnchor, path: String, io: some JournalFileIO)
    throws(JournalError) -> LoadedFile?
  {
    let size: Int
    switch io.size(descriptor) {
    case .success(let value): size = value
    case .failure(let errno): throw .readFailed(errno)
    }
    guard size >= JournalFormat.headerSize, anchor.offset >= JournalFormat.headerSize, anchor.offset <= size else {
      return nil
    }
    let header = try readRange(descriptor, from: 0, to: JournalFormat.headerSize, io: io)
    guard let salt = try? validateHeader(header, path: path), salt == anchor.salt else { return nil }
    let bytes = try readRange(descriptor, from: anchor.offset, to: size, io: io)
    let scan = bytes.withUnsafeBytes {
      JournalScan(
        $0, seed: JournalFormat.recordSeed(salt: salt), start: 0, firstSequence: anchor.sequence, base: anchor.offset)
    }
    guard bytes.isEmpty || !scan.frames.isEmpty else { return nil }
    return LoadedFile(
      bytes: bytes, base: anchor.offset, salt: salt, version: JournalFormat.version(ofHeader: header),
      firstSequence: anchor.sequence, scan: scan)
  }

  /// The file from its last usable checkpoint: the index's newest entries are
  /// tried in turn, and one counts only when the frame at its offset is a
  /// whole checkpoint with its sequence number. Nil when none is usable (no
  /// index, a stale one, a file cut back): the caller scans the whole file.
  static func loadFromCheckpoint(_ descriptor: Int32, path: String, io: some JournalFileIO) throws(JournalError)
    -> LoadedFile?
  {
    let size: Int
    switch io.size(descriptor) {
    case .success(let value): size = value
    case .failure(let errno): throw .readFailed(errno)
    }
    guard size >= JournalFormat.headerSize else { return nil }
    let header = try readRange(descriptor, from: 0, to: JournalFormat.headerSize, io: io)
    let salt = try validateHeader(header, path: path)
    let seed = JournalFormat.recordSeed(salt: salt)
    let candidates = CheckpointIndex.read(besides: path, seed: seed, io: io)
      .filter { $0.offset >= JournalFormat.headerSize && $0.offset + JournalFormat.frameSize <= size }
    for entry in candidates.suffix(3).reversed() {
      let bytes = try readRange(descriptor, from: entry.offset, to: size, io: io)
      let scan = bytes.withUnsafeBytes {
        JournalScan($0, seed: seed, start: 0, firstSequence: entry.sequence, base: entry.offset)
      }
      guard scan.frames.first?.type == JournalFormat.checkpointType else { continue }
      return LoadedFile(
        bytes: bytes, base: entry.offset, salt: salt, version: JournalFormat.version(ofHeader: header),
        firstSequence: entry.sequence, scan: scan)
    }
    return nil
  }

  /// The bytes from `start` to `end` (fewer when the file is shorter), with `EINTR` retried.
  static func readRange(_ descriptor: Int32, from start: Int, to end: Int, io: some JournalFileIO)
    throws(JournalError) -> [UInt8]
  {
    var bytes = [UInt8](repeating: 0, count: max(0, end - start))
    var offset = 0
    var failure: Errno?
    bytes.withUnsafeMutableBytes { buffer in
      while offset < buffer.count {
        switch io.read(descriptor, into: UnsafeMutableRawBufferPointer(rebasing: buffer[offset...]), at: start + offset)
        {
        case .success(0): return
        case .success(let count): offset += count
        case .failure(let errno) where errno.code == EINTR: continue
        case .failure(let errno):
          failure = errno
          return
        }
      }
    }
    if let failure { throw .readFailed(failure) }
    bytes.removeSubrange(offset...)
    return bytes
  }

  private static func readAll(_ descriptor: Int32, io: some JournalFileIO) throws(JournalError) -> [UInt8] {
    switch io.size(descriptor) {
    case .success(let size): return try readRange(descriptor, from: 0, to: size, io: io)
    case .failure(let errno): throw .readFailed(errno)
    }
  }

  /// Writes all of `bytes` at `start`: short writes continued, `EINTR` retried, a write of nothing is `ENOSPC`.
  static func writeAll(_ bytes: [UInt8], at start: Int, _ descriptor: Int32, io: some JournalFileIO)
    throws(JournalError)
  {
    var written = 0
    var failure: Errno?
    bytes.withUnsafeBytes { buffer in
      while written < buffer.count {
        switch io.write(descriptor, from: UnsafeRawBufferPointer(rebasing: buffer[written...]), at: start + written) {
        case .success(0):
          failure = Errno(ENOSPC)
          return
        case .success(let count): written += count
        case .failure(let errno) where errno.code == EINTR: continue
        case .failure(let errno):
          failure = errno
          return
        }
      }
    }
    if let failure { throw .writeFailed(failure) }
  }

  /// The salt in a journal header, nil when `bytes` do not start with a valid one.
  public static func salt(ofHeader bytes: [UInt8]) -> UInt64? { try? validateHeader(bytes, path: "") }

  static func validateHeader(_ bytes: [UInt8], path: String) throws(JournalError) -> UInt64 {
    guard bytes.count >= JournalFormat.headerSize, bytes.starts(with: JournalFormat.magic) else {
      throw .notAJournal(path: path)
    }
    return try bytes.withUnsafeBytes { raw in
      let stored = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: 16, as: UInt32.self))
      guard CRC32C.update(0, UnsafeRawBufferPointer(rebasing: raw[0..<16])) == stored else {
        return Result<UInt64, JournalError>.failure(.corruptHeader(path: path))
      }
      let version = UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: 4, as: UInt16.self))
      guard JournalFormat.readableVersions.contains(version) else { return .failure(.unsupportedVersion(version)) }
      // Every version this code writes keeps the reserved field 0: anything else
      // is a format it does not know, whatever the version says.
      let reserved = UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: 6, as: UInt16.self))
      guard reserved == 0 else { return .failure(.unsupportedHeaderField(reserved)) }
      return .success(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)))
    }.get()
  }

  /// Makes the file's directory entry durable after creating it.
  private static func synchronizeDirectory(of path: String, io: some JournalFileIO) throws(JournalError) {
    let slash = path.lastIndex(of: "/")
    let directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
    switch io.open(directory, flags: O_RDONLY | O_DIRECTORY | O_CLOEXEC, mode: 0) {
    case .success(let descriptor):
      defer { io.close(descriptor) }
      if case .failure(let errno) = io.synchronize(descriptor) { throw .syncFailed(errno) }
    case .failure(let errno): throw .cannotOpen(path: directory, errno)
    }
  }
}

/// The C library's `rename(2)`, which the method `rename(to:)` hides inside `WriteAheadLog`.
private func renameFile(_ old: String, _ new: String) -> Int32 { rename(old, new) }

/// The journal on the real file system.
public typealias DurableJournal = WriteAheadLog<PosixJournalEnvironment>

extension WriteAheadLog where Environment == PosixJournalEnvironment {
  /// Opens the journal at `path` on the real file system, waiting up to
  /// `lockWait` for its lock; with `anchor`, read from there when it holds.
  /// A new file gets `newFileVersion`.
  public init(
    path: String, lockWait: Duration = defaultLockWait, from anchor: JournalAnchor? = nil,
    newFileVersion: UInt16 = JournalFormat.version
  ) throws(JournalError) {
    try self.init(
      path: path, environment: PosixJournalEnvironment(), lockWait: lockWait, from: anchor,
      newFileVersion: newFileVersion)
  }

  /// Waits, up to `lockWait`, until no writer holds the journal at `path` on
  /// the real file system, and lets its lock go again (`waitForLock(path:environment:wait:)`).
  public static func waitForLock(path: String, lockWait: Duration = defaultLockWait) throws(JournalError) {
    try waitForLock(path: path, environment: PosixJournalEnvironment(), wait: lockWait)
  }

  /// Reads the journal at `path` on the real file system, as a reader; with
  /// `end`, as it stood when it was `end` bytes long.
  public static func read(path: String, endingAt end: Int? = nil) throws(JournalError) -> JournalRecovery {
    try read(path: path, environment: PosixJournalEnvironment(), endingAt: end)
  }

  /// Repairs the journal at `path` on the real file system.
  public static func repair(path: String, lockWait: Duration = defaultLockWait, recordsStandAlone: Bool = false)
    throws(JournalError) -> JournalRepair
  {
    try repair(
      path: path, environment: PosixJournalEnvironment(), lockWait: lockWait, recordsStandAlone: recordsStandAlone)
  }

  /// Writes back lost entries known again from elsewhere, on the real file system (`restoreLost`).
  public static func restoreLost<Entry: Encodable>(
    path: String, lockWait: Duration = defaultLockWait, entries: [UInt64: Entry]
  ) throws(JournalError) -> [UInt64] {
    try restoreLost(path: path, environment: PosixJournalEnvironment(), lockWait: lockWait, entries: entries)
  }
}
