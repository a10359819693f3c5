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

/// A file of checksummed entries that a journal's writer keeps beside the
/// journal, derived from it: a cache the journal can always rebuild, never
/// the truth. The kiosk keeps the day's settled tabs in one
/// (`<journal>.settled`), so that no process has to hold them in its state.
///
///     header (20 bytes)   magic "KDRV" | version u16 = 1 | reserved u16 | salt u64 | crc u32
///     entry (8 + n)       length u32 | crc u32 | payload[n]
///
/// The header's CRC-32C covers its first 16 bytes; an entry's covers its
/// length and payload, seeded like the journal's records with the journal's
/// salt, so the file of another journal (another day) never validates.
///
/// Entries are appended without a sync: a checkpoint of the journal records
/// where the file stood (`Mark`) after syncing it, and whoever opens the file
/// trusts exactly the entries up to that mark, each whole and valid, with the
/// mark's digest, or none.
/// Anything after the mark is the journal's to say again (its records after
/// the checkpoint), so a crash, a torn write, a journal cut back or restored
/// from a copy never makes the file say what the journal does not.
public struct DerivedLog: ~Copyable {
  /// Where the entries a checkpoint vouches for end: the file's length then,
  /// how many entries it held, and a digest of them. The digest is what tells
  /// a file restored from another copy, whose entries have the same count and
  /// lengths but say other things, from the one the checkpoint saw.
  public struct Mark: Codable, Equatable, Sendable {
    /// Bytes from the start of the file (its header included).
    public var end: Int
    /// Entries before `end`.
    public var entries: Int
    /// The entries' checksums, each chained into the last (`DerivedLog.chain`).
    /// Nil in a mark written before marks had one: it vouches for no file, which is then rebuilt.
    public var digest: UInt32?

    /// Creates a mark.
    public init(end: Int, entries: Int, digest: UInt32?) {
      self.end = end
      self.entries = entries
      self.digest = digest
    }

    /// A file with a header and no entry.
    public static let empty = Mark(end: DerivedLog.headerSize, entries: 0, digest: 0)
  }

  /// `digest` with one more entry's checksum chained in.
  public static func chain(_ digest: UInt32, _ entryChecksum: UInt32) -> UInt32 {
    withUnsafeBytes(of: entryChecksum.littleEndian) { CRC32C.update(digest, $0) }
  }

  /// The first four bytes of every derived log.
  static let magic: [UInt8] = Array("KDRV".utf8)
  /// The version this code writes and reads.
  static let version: UInt16 = 1
  /// Bytes in the header.
  public static let headerSize = 20
  /// Bytes before an entry's payload.
  static let frameSize = 8

  /// The file.
  public let path: String
  /// Where the entries end; nil once the file is behind what was appended (a
  /// write failed, or the file could not be opened at all).
  public private(set) var mark: Mark?
  private let descriptor: Int32
  private let seed: UInt32
  private let io = PosixFileIO()

  /// Opens (or creates) the log at `path` for the journal with `salt`,
  /// keeping the entries up to `keeping` when they are whole and valid there,
  /// and nothing otherwise: `kept` false then says the caller must append
  /// every entry again. A file that is not this journal's (another salt, a damaged
  /// header) is started again. A path that is a link, a FIFO or a directory
  /// is never written through: the log is then unavailable (`mark` nil).
  public init(path: String, salt: UInt64, keeping: Mark) {
    self.path = path
    let seed = JournalFormat.recordSeed(salt: salt)
    self.seed = seed
    let io = PosixFileIO()
    let opened = io.open(path, flags: O_RDWR | O_CREAT | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW, mode: 0o644)
    guard case .success(let descriptor) = opened, io.isRegularFile(descriptor) else {
      if case .success(let descriptor) = opened { io.close(descriptor) }
      (self.descriptor, mark, kept) = (-1, nil, false)
      return
    }
    self.descriptor = descriptor
    if let digest = keeping.digest,
      let found = Self.countEntries(descriptor, through: keeping.end, salt: salt, seed: seed, io: io),
      found.entries == keeping.entries, found.digest == digest,
      case .success = io.truncate(descriptor, to: keeping.end)
    {
      (mark, kept) = (keeping, true)
      return
    }
    let started = io.truncate(descriptor, to: 0).map { Self.write(Self.header(salt: salt), at: 0, descriptor, io: io) }
    mark = (try? started.get()) == true ? .empty : nil
    // Nothing to keep is kept by starting empty.
    kept = mark != nil && keeping.entries == 0
  }

  /// Whether opening kept the entries it was asked to keep.
  public let kept: Bool

  deinit {
    if descriptor >= 0 { io.close(descriptor) }
  }

  /// Appends one entry, without a sync. A failed write leaves the log behind
  /// for good (`mark` nil): no later entry is appended after a gap.
  public mutating func append(_ payload: [UInt8]) {
    guard let current = mark, payload.count <= JournalFormat.maxPayload else {
      mark = nil
      return
    }
    var bytes = [UInt8]()
    bytes.reserveCapacity(Self.frameSize + payload.count)
    let checksum = Self.appendEntry(payload, seed: seed, to: &bytes)
    guard let digest = current.digest, Self.write(bytes, at: current.end, descriptor, io: io) else {
      mark = nil
      return
    }
    mark = Mark(end: current.end + bytes.count, entries: current.entries + 1, digest: Self.chain(digest, checksum))
  }

  /// Gives the log up: it is behind what its journal says (its entries could
  /// not be found), so nothing more is appended and no mark of it is trusted.
  public mutating func abandon() { mark = nil }

  /// Syncs what was appended and returns where the entries end, for a
  /// checkpoint to record; nil when the log is behind or the sync failed.
  public mutating func synchronized() -> Mark? {
    guard mark != nil, case .success = io.synchronizeData(descriptor) else {
      mark = nil
      return nil
    }
    return mark
  }

  /// The payloads of the log at `path` up to `mark`, read without a lock and
  /// without writing; nil unless the file is this journal's, holds exactly
  /// `mark.entries` whole, valid entries before `mark.end` with the mark's
  /// digest, and is a regular file (never read through a link or a FIFO).
  public static func read(path: String, salt: UInt64, through mark: Mark) -> [ArraySlice<UInt8>]? {
    let io = PosixFileIO()
    guard case .success(let descriptor) = io.open(path, flags: O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW, mode: 0)
    else { return nil }
    defer { io.close(descriptor) }
    guard io.isRegularFile(descriptor),
      let bytes = try? WriteAheadLog<PosixJournalEnvironment>.readRange(descriptor, from: 0, to: mark.end, io: io),
      bytes.count == mark.end,
      let found = entries(in: bytes, salt: salt, seed: JournalFormat.recordSeed(salt: salt)),
      found.ranges.count == mark.entries, mark.digest == found.digest
    else { return nil }
    return found.ranges.map { bytes[$0] }
  }

  /// The mark of every entry of the log at `path`, when the file is this
  /// journal's and whole, valid entries to its last byte; nil otherwise. For
  /// a file no checkpoint vouches for (an archive's, after its day closed).
  public static func markOfWholeFile(path: String, salt: UInt64) -> Mark? {
    guard let bytes = FileManager.default.contents(atPath: path).map(Array.init),
      let found = entries(in: bytes, salt: salt, seed: JournalFormat.recordSeed(salt: salt))
    else { return nil }
    return Mark(end: bytes.count, entries: found.ranges.count, digest: found.digest)
  }

  /// The header of a log of the journal with `salt`.
  static func header(salt: UInt64) -> [UInt8] { JournalFormat.header(magic: magic, version: version, salt: salt) }

  /// Appends one framed entry to `bytes`; returns its checksum.
  @discardableResult
  static func appendEntry(_ payload: [UInt8], seed: UInt32, to bytes: inout [UInt8]) -> UInt32 {
    let start = bytes.count
    bytes.appendLittleEndian(UInt32(payload.count))
    bytes.appendLittleEndian(UInt32(0))
    bytes.append(contentsOf: payload)
    let crc = bytes.withUnsafeBytes { raw in
      let covered = CRC32C.update(seed, UnsafeRawBufferPointer(rebasing: raw[start..<start + 4]))
      return CRC32C.update(covered, UnsafeRawBufferPointer(rebasing: raw[(start + frameSize)...]))
    }
    bytes.withUnsafeMutableBytes { $0.storeBytes(of: crc.littleEndian, toByteOffset: start + 4, as: UInt32.self) }
    return crc
  }

  /// Where each entry's payload is in `bytes` (a whole file, or its start),
  /// and the entries' digest: nil unless they open with this journal's header
  /// and are whole, valid entries to their last byte.
  static func entries(in bytes: [UInt8], salt: UInt64, seed: UInt32) -> (ranges: [Range<Int>], digest: UInt32)? {
    guard bytes.count >= headerSize, Array(bytes[0..<headerSize]) == header(salt: salt) else { return nil }
    return bytes.withUnsafeBytes { raw -> ([Range<Int>], UInt32)? in
      var found: [Range<Int>] = []
      var digest: UInt32 = 0
      let end = wholeEntries(in: raw, from: headerSize, seed: seed) {
        found.append($0)
        digest = chain(digest, $1)
      }
      return end == raw.count ? (found, digest) : nil
    }
  }

  /// Walks the whole, valid entries of `raw` from `start`, handing each
  /// payload's range and the entry's checksum to `body`; returns where the walk
  /// stopped (at the first entry not whole in `raw`), nil at an entry that is whole but not valid.
  private static func wholeEntries(
    in raw: UnsafeRawBufferPointer, from start: Int, seed: UInt32, _ body: (Range<Int>, UInt32) -> Void
  ) -> Int? {
    var position = start
    while raw.count - position >= frameSize {
      let length = Int(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: position, as: UInt32.self)))
      guard length <= JournalFormat.maxPayload else { return nil }
      guard length <= raw.count - position - frameSize else { break }
      let stored = UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: position + 4, as: UInt32.self))
      let covered = CRC32C.update(seed, UnsafeRawBufferPointer(rebasing: raw[position..<position + 4]))
      let payload = position + frameSize..<position + frameSize + length
      guard CRC32C.update(covered, UnsafeRawBufferPointer(rebasing: raw[payload])) == stored else { return nil }
      body(payload, stored)
      position = payload.upperBound
    }
    return position
  }

  /// How many whole, valid entries the file open on `descriptor` holds
  /// before `end`, ending exactly there, and their digest; nil unless it opens
  /// with this journal's header. Read a megabyte at a time: a long day's file
  /// is tens of megabytes, and a writer checks it on every open.
  static func countEntries(_ descriptor: Int32, through end: Int, salt: UInt64, seed: UInt32, io: PosixFileIO)
    -> (entries: Int, digest: UInt32)?
  {
    typealias Log = WriteAheadLog<PosixJournalEnvironment>
    guard end >= headerSize, let header = try? Log.readRange(descriptor, from: 0, to: headerSize, io: io),
      header == Self.header(salt: salt)
    else { return nil }
    var count = 0
    var digest: UInt32 = 0
    var offset = headerSize
    while offset < end {
      // A chunk holds at least one whole entry of the largest size.
      let chunkEnd = min(end, offset + max(1 << 20, frameSize + JournalFormat.maxPayload))
      guard let chunk = try? Log.readRange(descriptor, from: offset, to: chunkEnd, io: io),
        chunk.count == chunkEnd - offset
      else { return nil }
      let consumed = chunk.withUnsafeBytes {
        wholeEntries(in: $0, from: 0, seed: seed) {
          count += 1
          digest = chain(digest, $1)
        }
      }
      // Nothing whole in a chunk that reaches `end`: a torn entry.
      guard let consumed, consumed > 0 else { return nil }
      offset += consumed
    }
    return (count, digest)
  }

  /// Writes all of `bytes` at `offset` (the journal's own loop: short writes continued, `EINTR` retried).
  private static func write(_ bytes: [UInt8], at offset: Int, _ descriptor: Int32, io: PosixFileIO) -> Bool {
    (try? WriteAheadLog<PosixJournalEnvironment>.writeAll(bytes, at: offset, descriptor, io: io)) != nil
  }
}
