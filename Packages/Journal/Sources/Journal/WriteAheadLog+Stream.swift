import JournalIO

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// One record handed over by a streaming read; its payload is valid only during the call.
public struct StreamedRecord {
  /// Its sequence number.
  public let sequence: UInt64
  /// Whether it is a checkpoint (its payload is state, not a command).
  public let isCheckpoint: Bool
  /// The format version of the file it is in: how its payload is encoded.
  public var version: UInt16 = JournalFormat.version
  /// What it stood for when it is a placeholder `repair` wrote over damage; nil for a readable record.
  public var lost: LostRecord? = nil
  /// Its payload, borrowed from the read buffer.
  public let payload: UnsafeRawBufferPointer
}

/// What a streaming read went through.
public struct StreamSummary: Equatable, Sendable {
  /// Records handed over.
  public var records: Int
  /// Bytes at the end left unread: a torn tail, or an append in flight.
  /// Zeros a writer wrote ahead of its records are not counted.
  public var unreadTailBytes: Int
  /// The file's size when the read started (later appends are not read).
  public var size: Int
  /// Where the last record read ends: the file as a writer that wrote no
  /// space ahead would have left it (`size` less any zeros and torn tail).
  public var recordsEnd: Int
}

extension WriteAheadLog {
  /// How many bytes a streaming read asks for at a time.
  static var streamChunk: Int { 1 << 20 }

  /// Reads every record of the journal at `path`, oldest first, in bounded
  /// memory: a buffer of about a megabyte, or of the largest record. A reader:
  /// no lock, no write. Corruption is refused exactly as `read` refuses it, but
  /// only when the read reaches it, so `body` may have seen the records before.
  /// `progress` gets the bytes read so far and the total, after each chunk.
  /// With `end`, the file is read as it stood when it was `end` bytes long (see `read`).
  public static func stream(
    path: String, environment: Environment, endingAt end: Int? = nil, progress: ((Int, Int) -> Void)? = nil,
    _ body: (StreamedRecord) throws -> Void
  ) throws -> StreamSummary {
    guard let end else { return try stream(path: path, io: environment.fileIO, progress: progress, body) }
    return try stream(path: path, io: CappedFileIO(environment.fileIO, path: path, end: end), progress: progress, body)
  }

  private static func stream(
    path: String, io: some JournalFileIO, progress: ((Int, Int) -> Void)?, _ body: (StreamedRecord) throws -> Void
  ) throws -> StreamSummary {
    let descriptor: Int32
    switch io.open(path, flags: O_RDONLY | O_CLOEXEC | O_NONBLOCK, mode: 0) {
    case .success(let opened): descriptor = opened
    case .failure(let errno) where errno.code == ENOENT: throw JournalError.missing(path: path)
    case .failure(let errno): throw JournalError.cannotOpen(path: path, errno)
    }
    defer { io.close(descriptor) }
    guard io.isRegularFile(descriptor) else { throw JournalError.notARegularFile(path: path) }
    var reader = ChunkReader(descriptor: descriptor, io: io)
    let size = try reader.fileSize()
    guard size >= JournalFormat.headerSize else {
      let bytes = try reader.bytes(from: 0, to: size)
      guard bytes.allSatisfy({ $0 == 0 }) || JournalFormat.magic.starts(with: bytes.prefix(4)) else {
        throw JournalError.notAJournal(path: path)
      }
      return StreamSummary(records: 0, unreadTailBytes: size, size: size, recordsEnd: 0)
    }
    let header = try reader.bytes(from: 0, to: JournalFormat.headerSize)
    let salt = try validateHeader(header, path: path)
    let version = JournalFormat.version(ofHeader: header)
    let seed = JournalFormat.recordSeed(salt: salt)
    var offset = JournalFormat.headerSize
    var expected: UInt64 = 1
    reader.start(at: offset, size: size)
    while offset < size {
      guard try reader.fill(JournalFormat.frameSize, at: offset, progress: progress),
        let length = reader.frameLength(at: offset),
        try reader.fill(JournalFormat.frameSize + length, at: offset, progress: progress),
        let record = reader.record(at: offset, seed: seed), record.sequence == expected
      else { break }
      try reader.withPayload(record.payload) { payload in
        try body(
          StreamedRecord(
            sequence: record.sequence, isCheckpoint: record.type == JournalFormat.checkpointType, version: version,
            lost: record.type == JournalFormat.lostType ? JournalFormat.lostRecord(payload) : nil, payload: payload))
      }
      offset += JournalFormat.frameSize + length
      expected += 1
    }
    progress?(size, size)
    let records = Int(expected - 1)
    guard offset < size else {
      return StreamSummary(records: records, unreadTailBytes: 0, size: size, recordsEnd: offset)
    }
    // A bad record: the rest of the file decides between zeros written ahead, a torn tail and corruption.
    let rest = try reader.bytes(from: offset, to: size)
    let (zeros, validFollow, wholeFrames) = rest.withUnsafeBytes { raw in
      (
        JournalFormat.trailingZeros(in: raw, from: 0),
        JournalScan.validRecordExists(in: raw, after: 0, from: expected, seed: seed),
        JournalScan.wholeFrames(in: raw, from: 0)
      )
    }
    // Zeros after the last record, or a record that landed there since the
    // window was read (a writer filling the zeros it wrote ahead): the end of
    // what this read reads, not damage.
    let appendedSince = rest.withUnsafeBytes { raw in
      JournalFormat.record(in: raw, at: 0, seed: seed).map { $0.sequence == expected } ?? false
    }
    if zeros == rest.count || appendedSince {
      return StreamSummary(records: records, unreadTailBytes: 0, size: size, recordsEnd: offset)
    }
    if validFollow { throw JournalError.corruptRecord(offset: offset, sequence: expected) }
    if wholeFrames >= 2 { throw JournalError.foreignRecords(offset: offset) }
    return StreamSummary(records: records, unreadTailBytes: rest.count - zeros, size: size, recordsEnd: offset)
  }
}

extension WriteAheadLog where Environment == PosixJournalEnvironment {
  /// Streams the journal at `path` on the real file system (see `stream(path:environment:progress:_:)`).
  public static func stream(
    path: String, endingAt end: Int? = nil, progress: ((Int, Int) -> Void)? = nil,
    _ body: (StreamedRecord) throws -> Void
  ) throws -> StreamSummary {
    try stream(path: path, environment: PosixJournalEnvironment(), endingAt: end, progress: progress, body)
  }
}

/// A window onto a file that slides forward: holds the bytes from `windowStart`.
private struct ChunkReader<IO: JournalFileIO> {
  let descriptor: Int32
  let io: IO
  private var window: [UInt8] = []
  private var windowStart = 0
  private var size = 0

  init(descriptor: Int32, io: IO) {
    self.descriptor = descriptor
    self.io = io
  }

  func fileSize() throws(JournalError) -> Int {
    switch io.size(descriptor) {
    case .success(let value): value
    case .failure(let errno): throw .readFailed(errno)
    }
  }

  mutating func start(at offset: Int, size: Int) {
    window = []
    windowStart = offset
    self.size = size
  }

  /// Makes the window hold `count` bytes from `offset` when the file has them; false when it does not.
  mutating func fill(_ count: Int, at offset: Int, progress: ((Int, Int) -> Void)? = nil) throws(JournalError) -> Bool {
    if windowStart + window.count >= offset + count { return true }
    guard offset + count <= size else { return false }
    // Drop what was consumed, then read at least a chunk.
    window.removeFirst(offset - windowStart)
    windowStart = offset
    let wanted = min(size, offset + max(count, WriteAheadLog<PosixJournalEnvironment>.streamChunk))
    window += try bytes(from: windowStart + window.count, to: wanted)
    progress?(windowStart + window.count, size)
    return windowStart + window.count >= offset + count
  }

  func frameLength(at offset: Int) -> Int? {
    window.withUnsafeBytes { raw in
      let local = offset - windowStart
      guard raw.count - local >= JournalFormat.frameSize,
        let bound = JournalFormat.maxPayload(ofType: raw[local + 8])
      else { return nil }
      let length = Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: local, as: UInt32.self)))
      return length <= bound ? length : nil
    }
  }

  func record(at offset: Int, seed: UInt32) -> (sequence: UInt64, type: UInt8, payload: Range<Int>)? {
    window.withUnsafeBytes { JournalFormat.record(in: $0, at: offset - windowStart, seed: seed) }
  }

  func withPayload(_ range: Range<Int>, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
    try window.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[range])) }
  }

  func bytes(from start: Int, to end: Int) throws(JournalError) -> [UInt8] {
    try WriteAheadLog<PosixJournalEnvironment>.readRange(descriptor, from: start, to: end, io: io)
  }
}
