/// What opening a journal found: the valid records, and what was dropped.
///
/// A journal with checkpoints is read from its last checkpoint that the
/// checkpoint index points at (`startedAtCheckpoint`): the records before it
/// are neither read nor checked by opening (`verify` checks them). Otherwise
/// the whole file is read.
public struct JournalRecovery: Sendable {
  /// The bytes read, up to the last valid record: the whole file, or the file
  /// from the checkpoint opening started at.
  let bytes: [UInt8]
  /// Each valid record read, in sequence order: its payload's range in `bytes` and its type.
  let frames: [JournalScan.Frame]
  /// The sequence number of the first record read (1 unless opening started at a checkpoint).
  public let firstSequence: UInt64
  /// Bytes of a torn tail: truncated when a writer opened the file, left in
  /// place (and not read) when a reader did. 0 when the file was clean.
  public let droppedBytes: Int
  /// True when this open created the file.
  public let created: Bool
  /// True when opening started at a checkpoint found through the index.
  public var startedAtCheckpoint = false
  /// Where a writer saved the torn tail before cutting it off (nil when none was cut).
  public var savedTailPath: String? = nil
  /// Whether the file holds nothing from before this open: it was created, or
  /// it was shorter than a header (empty, or its header torn) and got a fresh one.
  public var startedFresh = false
  /// The salt in the file's header (0 when a reader found no header).
  public var salt: UInt64 = 0
  /// The format version in the file's header (`JournalFormat.version` when a
  /// reader found no header): how its payloads are encoded.
  public var version: UInt16 = JournalFormat.version

  /// The number of valid records read.
  public var count: Int { frames.count }

  /// The payload of record `index` (0-based; its sequence number is `sequence(index)`).
  public func payload(_ index: Int) -> ArraySlice<UInt8> { bytes[frames[index].payload] }

  /// The sequence number of record `index`.
  public func sequence(_ index: Int) -> UInt64 { firstSequence + UInt64(index) }

  /// Whether record `index` is a checkpoint (its payload is state, not a command).
  public func isCheckpoint(_ index: Int) -> Bool { frames[index].type == JournalFormat.checkpointType }

  /// What record `index` stood for when it is a placeholder `repair` wrote over damage; nil for a readable record.
  public func lost(_ index: Int) -> LostRecord? {
    guard frames[index].type == JournalFormat.lostType else { return nil }
    return bytes[frames[index].payload].withUnsafeBytes { JournalFormat.lostRecord($0) }
  }

  /// The index of the last checkpoint read, if any: replay starts there.
  public var lastCheckpoint: Int? { frames.lastIndex { $0.type == JournalFormat.checkpointType } }

  /// Every payload, in order.
  public var payloads: [ArraySlice<UInt8>] { frames.map { bytes[$0.payload] } }
}

/// What a placeholder written by `repair` stands for.
public enum LostRecord: Equatable, Sendable {
  /// A command: what it did is known only from the next checkpoint.
  case command
  /// A checkpoint: nothing is lost, the records around it hold the same state.
  case checkpoint
  /// A record whose type byte was damaged too.
  case unknown
}

/// What `repair` did.
public struct JournalRepair: Equatable, Sendable {
  /// Valid records kept.
  public let keptRecords: Int
  /// Bytes cut from the end.
  public let droppedBytes: Int
  /// The copy of the file as it was, or nil when there was nothing to repair.
  public let backupPath: String?
  /// Damaged records replaced in place by placeholders, with what each stood
  /// for, because valid records after them were kept (salvage, not truncation).
  public var lost: [(sequence: UInt64, record: LostRecord)] = []

  /// Creates a report.
  public init(keptRecords: Int, droppedBytes: Int, backupPath: String?) {
    self.keptRecords = keptRecords
    self.droppedBytes = droppedBytes
    self.backupPath = backupPath
  }

  public static func == (lhs: JournalRepair, rhs: JournalRepair) -> Bool {
    lhs.keptRecords == rhs.keptRecords && lhs.droppedBytes == rhs.droppedBytes && lhs.backupPath == rhs.backupPath
      && lhs.lost.map(\.sequence) == rhs.lost.map(\.sequence) && lhs.lost.map(\.record) == rhs.lost.map(\.record)
  }
}

/// The scan shared by open, read and repair.
struct JournalScan {
  /// One valid record: where its payload is and what type it is.
  struct Frame: Sendable {
    var payload: Range<Int>
    var type: UInt8
  }

  var frames: [Frame] = []
  /// Where the valid prefix ends, in the scanned bytes.
  var goodEnd: Int
  /// The zeros that end the scanned bytes after the valid prefix: space a
  /// writer zeroed ahead (`WriteAheadLog`), not a torn tail. After a torn
  /// write into that space, the zeros that follow what the write left.
  var zeroTail = 0
  /// The first bad record, if any: its offset in the file (not in the scanned
  /// bytes), and whether valid records follow it.
  var firstBad: (offset: Int, validRecordsFollow: Bool)?
  /// The bytes of a torn tail in `count` scanned bytes: what follows the
  /// valid prefix, less the zeros after it. 0 when the scan ended clean.
  func tornBytes(of count: Int) -> Int { count - goodEnd - zeroTail }

  /// Whether the bad part holds two or more whole frames chained by their
  /// lengths: more than the one record an interrupted append can leave, so
  /// not a torn tail (records of another journal, behind a copied header).
  var badPartHoldsWholeFrames = false

  /// Scans `bytes` from `start`, expecting record `firstSequence` there;
  /// `bytes[0]` is at `base` in the file.
  init(_ bytes: UnsafeRawBufferPointer, seed: UInt32, start: Int, firstSequence: UInt64 = 1, base: Int = 0) {
    var offset = start
    var expected = firstSequence
    goodEnd = offset
    while offset < bytes.count {
      if let record = JournalFormat.record(in: bytes, at: offset, seed: seed), record.sequence == expected {
        frames.append(Frame(payload: record.payload, type: record.type))
        offset = record.payload.upperBound
        goodEnd = offset
        expected += 1
        continue
      }
      zeroTail = JournalFormat.trailingZeros(in: bytes, from: offset)
      // Only zeros after the last record: the space ahead, and nothing is bad.
      if offset + zeroTail == bytes.count { return }
      firstBad = (base + offset, Self.validRecordExists(in: bytes, after: offset, from: expected, seed: seed))
      badPartHoldsWholeFrames = Self.wholeFrames(in: bytes, from: offset) >= 2
      return
    }
  }

  /// How many frames, each whole by its length field, follow one another from `offset`.
  static func wholeFrames(in bytes: UnsafeRawBufferPointer, from offset: Int) -> Int {
    var count = 0
    var position = offset
    while let length = JournalFormat.wholeFrameLength(in: bytes, at: position) {
      count += 1
      position += JournalFormat.frameSize + length
    }
    return count
  }

  /// Whether any whole record with a checksum that matches this file, numbered
  /// `sequence` or later, starts after `offset`.
  static func validRecordExists(
    in bytes: UnsafeRawBufferPointer, after offset: Int, from sequence: UInt64, seed: UInt32
  ) -> Bool {
    var candidate = offset + 1
    while candidate + JournalFormat.frameSize <= bytes.count {
      if JournalFormat.maxPayload(ofType: bytes[candidate + 8]) != nil,
        let record = JournalFormat.record(in: bytes, at: candidate, seed: seed), record.sequence >= sequence
      {
        return true
      }
      candidate += 1
    }
    return false
  }
}

/// A place in a journal file to open it from (`WriteAheadLog.init(path:environment:lockWait:from:)`):
/// the record at `offset` is numbered `sequence`, in the file whose header
/// holds `salt`. The kiosk opens the processor's ledger from the place where
/// the live day's movements begin, so that a day reads only its own.
public struct JournalAnchor: Codable, Equatable, Sendable {
  /// The byte offset of the record's frame (or of the file's end, when none follows yet).
  public var offset: Int
  /// Its sequence number.
  public var sequence: UInt64
  /// The salt of the file.
  public var salt: UInt64

  /// Creates an anchor.
  public init(offset: Int, sequence: UInt64, salt: UInt64) {
    self.offset = offset
    self.sequence = sequence
    self.salt = salt
  }
}

/// Where a checkpoint record is in the file.
public struct CheckpointMark: Equatable, Sendable {
  /// Its sequence number.
  public var sequence: UInt64
  /// The byte offset of its frame.
  public var offset: Int
  /// Its payload's size in bytes.
  public var size: Int

  /// The byte offset just past it.
  public var end: Int { offset + JournalFormat.frameSize + size }
}

/// A journal file as read by open or by a reader: its bytes from `base`, and their scan.
struct LoadedFile {
  var bytes: [UInt8]
  /// Where `bytes[0]` is in the file: 0, or the checkpoint reading started at.
  var base: Int
  var salt: UInt64
  /// The version in the file's header.
  var version: UInt16
  var firstSequence: UInt64
  var scan: JournalScan
  var seed: UInt32 { JournalFormat.recordSeed(salt: salt) }

  init(bytes: [UInt8], base: Int, salt: UInt64, version: UInt16, firstSequence: UInt64, scan: JournalScan) {
    self.bytes = bytes
    self.base = base
    self.salt = salt
    self.version = version
    self.firstSequence = firstSequence
    self.scan = scan
  }

  /// The whole file, header included.
  init(wholeFile bytes: [UInt8], path: String) throws(JournalError) {
    let salt = try WriteAheadLog<PosixJournalEnvironment>.validateHeader(bytes, path: path)
    let seed = JournalFormat.recordSeed(salt: salt)
    let scan = bytes.withUnsafeBytes { JournalScan($0, seed: seed, start: JournalFormat.headerSize) }
    self.init(
      bytes: bytes, base: 0, salt: salt, version: JournalFormat.version(ofHeader: bytes), firstSequence: 1, scan: scan)
  }

  /// Every checkpoint the scan found, as index entries.
  var checkpoints: [CheckpointIndex.Entry] {
    scan.frames.enumerated().compactMap { index, frame in
      frame.type == JournalFormat.checkpointType
        ? CheckpointIndex.Entry(
          offset: base + frame.payload.lowerBound - JournalFormat.frameSize, sequence: firstSequence + UInt64(index))
        : nil
    }
  }

  /// The last checkpoint the scan found.
  var lastCheckpointMark: CheckpointMark? {
    guard let index = scan.frames.lastIndex(where: { $0.type == JournalFormat.checkpointType }) else { return nil }
    let frame = scan.frames[index]
    return CheckpointMark(
      sequence: firstSequence + UInt64(index), offset: base + frame.payload.lowerBound - JournalFormat.frameSize,
      size: frame.payload.count)
  }
}
