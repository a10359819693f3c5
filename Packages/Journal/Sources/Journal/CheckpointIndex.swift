import JournalIO

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `<journal>.checkpoints`: where the journal's checkpoints start, so opening
/// reads from the last one instead of scanning the whole file.
///
/// A hint, never the truth: each entry is checked against the journal (the
/// frame at its offset must be a whole checkpoint record with the entry's
/// sequence number and a checksum that matches the journal's salt). A missing,
/// torn or stale index only costs a full scan.
///
///     entry (24 bytes)   offset u64 | sequence u64 | crc u32 | reserved u32
///
/// The entry's CRC-32C covers its first 16 bytes, seeded like the journal's
/// records, so an entry written for another journal never validates.
enum CheckpointIndex {
  /// Bytes per entry.
  static let entrySize = 24

  /// One checkpoint's place in the journal.
  struct Entry: Equatable {
    /// The byte offset of the checkpoint's frame.
    var offset: Int
    /// Its sequence number.
    var sequence: UInt64
  }

  /// The index file of the journal at `path`.
  static func path(besides journal: String) -> String { journal + ".checkpoints" }

  static func encode(_ entry: Entry, seed: UInt32) -> [UInt8] {
    var bytes: [UInt8] = []
    bytes.appendLittleEndian(UInt64(entry.offset))
    bytes.appendLittleEndian(entry.sequence)
    bytes.appendLittleEndian(CRC32C.checksum(bytes, seed: seed))
    bytes.appendLittleEndian(UInt32(0))
    return bytes
  }

  /// The whole, valid entries of `bytes`, in file order.
  static func entries(in bytes: [UInt8], seed: UInt32) -> [Entry] {
    var entries: [Entry] = []
    var start = 0
    while start + entrySize <= bytes.count {
      let entry = Array(bytes[start..<start + entrySize])
      start += entrySize
      let stored = entry.withUnsafeBytes { UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: 16, as: UInt32.self)) }
      guard CRC32C.checksum(Array(entry[0..<16]), seed: seed) == stored else { continue }
      entry.withUnsafeBytes { raw in
        let offset = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self))
        let sequence = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        if offset <= UInt64(Int.max) { entries.append(Entry(offset: Int(offset), sequence: sequence)) }
      }
    }
    return entries
  }

  /// The valid entries of the index beside `journal`; none when it is missing or unreadable.
  static func read(besides journal: String, seed: UInt32, io: some JournalFileIO) -> [Entry] {
    // Not a link (it would name another file) and not a FIFO (reading it would wait forever): a regular file or none.
    guard
      case .success(let descriptor) = io.open(
        path(besides: journal), flags: O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW, mode: 0)
    else { return [] }
    defer { io.close(descriptor) }
    guard io.isRegularFile(descriptor) else { return [] }
    guard case .success(let size) = io.size(descriptor), size <= 1 << 26,
      let bytes = try? WriteAheadLog<PosixJournalEnvironment>.readRange(descriptor, from: 0, to: size, io: io),
      bytes.count == size
    else { return [] }
    return entries(in: bytes, seed: seed)
  }

  /// Appends `entries` to the index beside `journal` (after its last whole
  /// entry) and syncs it; with `replacing`, the index holds only them after.
  /// Best effort: an index that cannot be written only makes the next open
  /// scan the whole journal, so a failure here never fails the checkpoint.
  static func write(_ entries: [Entry], besides journal: String, seed: UInt32, replacing: Bool, io: some JournalFileIO)
  {
    guard
      case .success(let descriptor) = io.open(
        path(besides: journal), flags: O_RDWR | O_CREAT | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW, mode: 0o644)
    else { return }
    defer { io.close(descriptor) }
    guard io.isRegularFile(descriptor) else { return }
    var start = 0
    if !replacing, case .success(let size) = io.size(descriptor) { start = size / entrySize * entrySize }
    let bytes = entries.flatMap { encode($0, seed: seed) }
    guard case .success = io.truncate(descriptor, to: start),
      (try? WriteAheadLog<PosixJournalEnvironment>.writeAll(bytes, at: start, descriptor, io: io)) != nil
    else { return }
    _ = io.synchronizeData(descriptor)
  }
}
