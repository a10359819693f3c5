/// What opening a journal found: the valid records, and what was dropped.
public struct JournalRecovery: Sendable {
  /// The file's bytes up to the last valid record.
  let bytes: [UInt8]
  /// Each valid record's payload range in `bytes`, in sequence order.
  let payloadRanges: [Range<Int>]
  /// Bytes of a torn tail: truncated when a writer opened the file, left in
  /// place (and not read) when a reader did. 0 when the file was clean.
  public let droppedBytes: Int
  /// True when this open created the file.
  public let created: Bool
  /// Where a writer saved the torn tail before cutting it off (nil when none was cut).
  public var savedTailPath: String? = nil

  /// The number of valid records.
  public var count: Int { payloadRanges.count }

  /// The payload of record `index` (0-based; its sequence number is `index + 1`).
  public func payload(_ index: Int) -> ArraySlice<UInt8> { bytes[payloadRanges[index]] }

  /// Every payload, in order.
  public var payloads: [ArraySlice<UInt8>] { payloadRanges.map { bytes[$0] } }
}

/// What `repair` did.
public struct JournalRepair: Equatable, Sendable {
  /// Valid records kept.
  public let keptRecords: Int
  /// Bytes cut from the end.
  public let droppedBytes: Int
  /// The copy of the file as it was, or nil when there was nothing to repair.
  public let backupPath: String?

  /// Creates a report.
  public init(keptRecords: Int, droppedBytes: Int, backupPath: String?) {
    self.keptRecords = keptRecords
    self.droppedBytes = droppedBytes
    self.backupPath = backupPath
  }
}

/// The scan shared by open and repair.
struct JournalScan {
  var payloadRanges: [Range<Int>] = []
  /// Where the valid prefix ends.
  var goodEnd: Int
  /// The first bad record, if any: its offset, and whether valid records follow it.
  var firstBad: (offset: Int, validRecordsFollow: Bool)?
  /// Whether the bad part holds two or more whole frames chained by their
  /// lengths: more than the one record an interrupted append can leave, so
  /// not a torn tail (records of another journal, behind a copied header).
  var badPartHoldsWholeFrames = false

  init(_ bytes: UnsafeRawBufferPointer, seed: UInt32) {
    var offset = JournalFormat.headerSize
    var expected: UInt64 = 1
    goodEnd = offset
    while offset < bytes.count {
      if let record = JournalFormat.record(in: bytes, at: offset, seed: seed), record.sequence == expected {
        payloadRanges.append(record.payload)
        offset = record.payload.upperBound
        goodEnd = offset
        expected += 1
        continue
      }
      firstBad = (offset, Self.validRecordExists(in: bytes, after: offset, from: expected, seed: seed))
      badPartHoldsWholeFrames = Self.wholeFrames(in: bytes, from: offset) >= 2
      return
    }
  }

  /// How many frames, each whole by its length field, follow one another from `offset`.
  private static func wholeFrames(in bytes: UnsafeRawBufferPointer, from offset: Int) -> Int {
    var count = 0
    var position = offset
    while bytes.count - position >= JournalFormat.frameSize {
      let length = Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: position, as: UInt32.self)))
      guard length <= JournalFormat.maxPayload, length <= bytes.count - position - JournalFormat.frameSize,
        bytes[position + 8] == JournalFormat.commandType
      else { break }
      count += 1
      position += JournalFormat.frameSize + length
    }
    return count
  }

  /// Whether any whole record with a checksum that matches this file, numbered
  /// `sequence` or later, starts after `offset`.
  private static func validRecordExists(
    in bytes: UnsafeRawBufferPointer, after offset: Int, from sequence: UInt64, seed: UInt32
  ) -> Bool {
    var candidate = offset + 1
    while candidate + JournalFormat.frameSize <= bytes.count {
      if bytes[candidate + 8] == JournalFormat.commandType,
        let record = JournalFormat.record(in: bytes, at: candidate, seed: seed), record.sequence >= sequence
      {
        return true
      }
      candidate += 1
    }
    return false
  }
}
