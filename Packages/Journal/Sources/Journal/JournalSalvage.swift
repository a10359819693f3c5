/// What `repair` does to a damaged journal: salvage, not truncation.
///
/// A record followed by valid records was acknowledged: appends are
/// sequential and each is synced before the next begins. So a damaged record
/// is never a reason to drop the valid records after it when they can still be
/// replayed. The scan walks the whole file, and at each damaged stretch finds
/// the next valid record (by checksum and sequence number) to carry on from.
/// A damaged stretch is replaced, in place and byte for byte, by placeholder
/// records with the lost sequence numbers when nothing after it depends on
/// what it held:
///
/// - every lost record was a checkpoint (the records around it hold the same state), or
/// - a valid checkpoint follows it (the state is known again from there).
///
/// Otherwise (a lost command with no checkpoint after it) the state after it
/// cannot be known, and the file is cut there, as it always was; so is damage
/// with no valid record after it (a torn tail). The placeholders keep every
/// sequence number and offset, so the checkpoint index stays valid and no
/// number is ever given to a second record.
struct JournalSalvage {
  /// A damaged stretch replaced by placeholders: one frame per lost record.
  struct Stretch {
    /// The placeholders' bytes, exactly as many as the stretch.
    var bytes: [UInt8]
    /// Where the stretch starts in the file.
    var offset: Int
    /// Each lost record's sequence number and what it stood for.
    var lost: [(sequence: UInt64, record: LostRecord)]
  }

  /// The stretches to overwrite, in file order.
  var stretches: [Stretch] = []
  /// Where to cut the file, when something after a point cannot be kept.
  var cut: Int?
  /// The valid records in what is kept.
  var keptRecords = 0

  /// Whether the file needs no repair.
  var isClean: Bool { stretches.isEmpty && cut == nil }

  /// Plans the salvage of a whole file (`bytes` from offset 0, header
  /// included). With `recordsStandAlone` (a ledger: each record is whole in
  /// itself, none is replayed on top of another) every damaged stretch that
  /// valid records follow is replaced, checkpoint or not.
  init(_ bytes: UnsafeRawBufferPointer, seed: UInt32, recordsStandAlone: Bool = false) {
    var offset = JournalFormat.headerSize
    var expected: UInt64 = 1
    var damaged: [(range: Range<Int>, sequences: Range<UInt64>, recordsBefore: Int)] = []
    var checkpoints: [Int] = []
    var records = 0
    while offset < bytes.count {
      if let record = JournalFormat.record(in: bytes, at: offset, seed: seed), record.sequence == expected {
        if record.type == JournalFormat.checkpointType { checkpoints.append(offset) }
        records += 1
        offset = record.payload.upperBound
        expected += 1
        continue
      }
      // Zeros written ahead of the last record are not damage: nothing to cut.
      if offset + JournalFormat.trailingZeros(in: bytes, from: offset) == bytes.count { break }
      guard let next = Self.nextValidRecord(in: bytes, after: offset, from: expected, seed: seed) else {
        cut = offset
        break
      }
      damaged.append((offset..<next.offset, expected..<next.sequence, records))
      offset = next.offset
      expected = next.sequence
    }
    keptRecords = records
    for stretch in damaged {
      let lost = Self.frames(in: bytes, stretch.range, count: stretch.sequences.count)
      let recoverable =
        recordsStandAlone || lost.allSatisfy { $0.record == .checkpoint }
        || checkpoints.contains { $0 > stretch.range.lowerBound }
      guard !stretch.sequences.isEmpty, !lost.isEmpty, recoverable else {
        cut = stretch.range.lowerBound
        keptRecords = stretch.recordsBefore
        break
      }
      var filler: [UInt8] = []
      for (sequence, frame) in zip(stretch.sequences, lost) {
        var payload = [UInt8](repeating: 0, count: frame.size - JournalFormat.frameSize)
        payload[0] = frame.type
        JournalFormat.appendRecord(payload, sequence: sequence, seed: seed, type: JournalFormat.lostType, to: &filler)
      }
      stretches.append(
        Stretch(
          bytes: filler, offset: stretch.range.lowerBound,
          lost: zip(stretch.sequences, lost).map { ($0, $1.record) }))
    }
  }

  /// The first whole record after `offset` that validates, numbered `sequence` or later.
  static func nextValidRecord(in bytes: UnsafeRawBufferPointer, after offset: Int, from sequence: UInt64, seed: UInt32)
    -> (offset: Int, sequence: UInt64)?
  {
    var candidate = offset + 1
    while candidate + JournalFormat.frameSize <= bytes.count {
      if JournalFormat.maxPayload(ofType: bytes[candidate + 8]) != nil,
        let record = JournalFormat.record(in: bytes, at: candidate, seed: seed), record.sequence >= sequence
      {
        return (candidate, record.sequence)
      }
      candidate += 1
    }
    return nil
  }

  /// How `range` divides into `count` lost frames: by their length fields when
  /// those chain exactly across it (each placeholder then covers one record and
  /// keeps its type), otherwise into equal-sized frames of unknown type, the
  /// last taking the rest. Empty when `range` cannot hold `count` placeholders.
  static func frames(in bytes: UnsafeRawBufferPointer, _ range: Range<Int>, count: Int) -> [(
    size: Int, type: UInt8, record: LostRecord
  )] {
    let smallest = JournalFormat.frameSize + 1
    guard count > 0, range.count >= smallest * count else { return [] }
    var chained: [(size: Int, type: UInt8, record: LostRecord)] = []
    var position = range.lowerBound
    while chained.count < count, let length = JournalFormat.wholeFrameLength(in: bytes, at: position),
      length >= 1, position + JournalFormat.frameSize + length <= range.upperBound
    {
      let type = bytes[position + 8]
      let record: LostRecord =
        switch type {
        case JournalFormat.commandType: .command
        case JournalFormat.checkpointType: .checkpoint
        default: .unknown
        }
      chained.append((JournalFormat.frameSize + length, record == .unknown ? 0 : type, record))
      position += JournalFormat.frameSize + length
    }
    if chained.count == count, position == range.upperBound { return chained }
    let size = range.count / count
    return (0..<count).map { index in
      (index == count - 1 ? range.count - size * (count - 1) : size, 0, .unknown)
    }
  }
}
