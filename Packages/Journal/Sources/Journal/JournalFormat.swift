/// The on-disk layout of a journal file; docs/journal.md describes it for humans.
///
/// All integers are little-endian.
///
///     header (20 bytes)   magic "KJNL" | version u16 | reserved u16 | salt u64 | crc u32
///     record (17 + n)     length u32 | crc u32 | type u8 | sequence u64 | payload[n]
///
/// A record's type is 1 (a command), 2 (a checkpoint: the whole state, so
/// opening need not replay what came before it; docs/journal.md) or 3 (a
/// placeholder `repair` wrote over a damaged record it salvaged around: its
/// first payload byte is the type of the record it stands for, 0 when unknown,
/// the rest is zeros, so it fills exactly the bytes of what it replaced).
///
/// The header CRC covers its first 16 bytes. A record's CRC covers its length,
/// type, sequence number and payload, seeded with the CRC of the file's salt,
/// so a record copied from another journal never validates here.
public enum JournalFormat {
  /// The first four bytes of every journal.
  public static let magic: [UInt8] = Array("KJNL".utf8)
  /// The version a new journal gets unless its creator asks for another:
  /// the newest, `canonicalVersion`.
  public static let version: UInt16 = canonicalVersion
  /// Version 2 added checkpoint records. Its payloads are whatever its writer
  /// wrote; the kiosk's are `JSONEncoder`'s bytes (sorted keys).
  public static let encoderVersion: UInt16 = 2
  /// Version 3 frames records exactly as version 2 does; it tells readers
  /// that the payloads are in their entries' canonical form (the kiosk's:
  /// docs/replay.md), so a reader knows how to decode a payload without
  /// guessing from its bytes. The journal itself never looks inside one.
  public static let canonicalVersion: UInt16 = 3
  /// The versions this code reads: a version-1 file is a version-2 file without checkpoints.
  public static let readableVersions: ClosedRange<UInt16> = 1...3
  /// Bytes in the file header.
  public static let headerSize = 20
  /// Bytes before a record's payload.
  public static let frameSize = 17
  /// A record's frame left as zeros: a buffer that starts with it takes the
  /// payload after it and goes to `WriteAheadLog.append(framed:)`, which
  /// fills it in, so the payload is never copied into a frame.
  public static let reservedFrame = [UInt8](repeating: 0, count: frameSize)
  /// The largest payload accepted; a length field above it is corruption, so
  /// garbage never causes a huge allocation.
  public static let maxPayload = 1 << 20
  /// The record type of a journaled command.
  public static let commandType: UInt8 = 1
  /// The record type of a checkpoint.
  public static let checkpointType: UInt8 = 2
  /// The record type of a placeholder for a record lost to damage (see `repair`).
  public static let lostType: UInt8 = 3
  /// The largest checkpoint payload: a checkpoint holds the whole state, so it
  /// is allowed to be larger than a command, on purpose, and still bounded.
  public static let maxCheckpointPayload = 1 << 28

  /// The largest payload of a record of `type`; nil for a type that does not exist.
  static func maxPayload(ofType type: UInt8) -> Int? {
    switch type {
    case commandType: maxPayload
    case checkpointType, lostType: maxCheckpointPayload
    default: nil
    }
  }

  /// What the placeholder with `payload` stands for.
  static func lostRecord(_ payload: UnsafeRawBufferPointer) -> LostRecord {
    switch payload.first {
    case commandType: .command
    case checkpointType: .checkpoint
    default: .unknown
    }
  }

  /// The header bytes for a journal of `version` with `salt`.
  static func header(salt: UInt64, version: UInt16) -> [UInt8] { header(magic: magic, version: version, salt: salt) }

  /// The version in a header already validated (`validateHeader`).
  static func version(ofHeader bytes: some Collection<UInt8>) -> UInt16 {
    let start = bytes.index(bytes.startIndex, offsetBy: 4)
    return UInt16(bytes[start]) | UInt16(bytes[bytes.index(after: start)]) << 8
  }

  /// The header bytes of a file of this family (a journal, or a log derived
  /// from one): `magic | version u16 | reserved u16 | salt u64 | crc u32`.
  static func header(magic: [UInt8], version: UInt16, salt: UInt64) -> [UInt8] {
    var bytes = magic
    bytes.appendLittleEndian(version)
    bytes.appendLittleEndian(UInt16(0))
    bytes.appendLittleEndian(salt)
    bytes.appendLittleEndian(CRC32C.checksum(bytes))
    return bytes
  }

  /// The CRC every record's checksum starts from.
  static func recordSeed(salt: UInt64) -> UInt32 {
    var bytes: [UInt8] = []
    bytes.appendLittleEndian(salt)
    return CRC32C.checksum(bytes)
  }

  /// Appends one framed record to `bytes`.
  static func appendRecord(
    _ payload: [UInt8], sequence: UInt64, seed: UInt32, type: UInt8 = commandType, to bytes: inout [UInt8]
  ) {
    let start = bytes.count
    bytes.append(contentsOf: repeatElement(0, count: frameSize))
    bytes.append(contentsOf: payload)
    frameRecord(in: &bytes, at: start, sequence: sequence, seed: seed, type: type)
  }

  /// Fills in the frame of the record whose payload follows `frameSize`
  /// reserved bytes at `start` and runs to the end of `bytes`: its length,
  /// type, sequence number and CRC. A writer that reserves the frame before
  /// its payload frames a record without copying the payload.
  static func frameRecord(in bytes: inout [UInt8], at start: Int, sequence: UInt64, seed: UInt32, type: UInt8) {
    let length = UInt32(bytes.count - start - frameSize)
    bytes.withUnsafeMutableBytes { raw in
      raw.storeBytes(of: length.littleEndian, toByteOffset: start, as: UInt32.self)
      raw[start + 8] = type
      raw.storeBytes(of: sequence.littleEndian, toByteOffset: start + 9, as: UInt64.self)
      let covered = CRC32C.update(seed, UnsafeRawBufferPointer(rebasing: raw[start..<start + 4]))
      let crc = CRC32C.update(covered, UnsafeRawBufferPointer(rebasing: raw[(start + 8)...]))
      raw.storeBytes(of: crc.littleEndian, toByteOffset: start + 4, as: UInt32.self)
    }
  }

  /// The record starting at `offset` in `bytes`, when it is whole and its CRC
  /// matches; `nil` otherwise. Reads nothing past the end and allocates nothing.
  static func record(in bytes: UnsafeRawBufferPointer, at offset: Int, seed: UInt32) -> (
    sequence: UInt64, type: UInt8, payload: Range<Int>
  )? {
    guard let length = wholeFrameLength(in: bytes, at: offset) else { return nil }
    let stored = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self))
    let lengthCRC = CRC32C.update(seed, UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + 4]))
    let end = offset + frameSize + length
    let crc = CRC32C.update(lengthCRC, UnsafeRawBufferPointer(rebasing: bytes[(offset + 8)..<end]))
    guard crc == stored else { return nil }
    let sequence = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset + 9, as: UInt64.self))
    return (sequence, bytes[offset + 8], offset + frameSize..<end)
  }

  /// How many zero bytes end `bytes`, counting back no further than `start`.
  /// A writer zeroes space ahead of its last record (`WriteAheadLog`), so a
  /// bad frame followed only by zeros is the end of the records, not a torn
  /// tail; zeros are never a record, since no record has type 0.
  static func trailingZeros(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int {
    var end = bytes.count
    // Eight bytes at a time: the zeros ahead can be a megabyte.
    while end - 8 >= start, bytes.loadUnaligned(fromByteOffset: end - 8, as: UInt64.self) == 0 { end -= 8 }
    while end > start, bytes[end - 1] == 0 { end -= 1 }
    return bytes.count - end
  }

  /// The payload length of the frame at `offset` when its type exists, its
  /// length is within that type's bound and the whole frame is in `bytes`.
  static func wholeFrameLength(in bytes: UnsafeRawBufferPointer, at offset: Int) -> Int? {
    guard bytes.count - offset >= frameSize, let bound = maxPayload(ofType: bytes[offset + 8]) else { return nil }
    let length = Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
    guard length <= bound, length <= bytes.count - offset - frameSize else { return nil }
    return length
  }
}

extension [UInt8] {
  mutating func appendLittleEndian<Value: FixedWidthInteger>(_ value: Value) {
    Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
  }
}
