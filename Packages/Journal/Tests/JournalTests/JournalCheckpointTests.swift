import Foundation
import Journal
import Testing

private func texts(of recovery: JournalRecovery) -> [String] {
  recovery.payloads.map { String(decoding: $0, as: UTF8.self) }
}

@Test func openingStartsAtTheLastCheckpointAndReadsNothingBeforeIt() throws {
  let file = try JournalFile()
  let offsets = try fillWithCheckpoints(file)
  let log = try DurableJournal(path: file.path)
  #expect(log.recovery.startedAtCheckpoint)
  #expect(log.recovery.firstSequence == 16)
  #expect(texts(of: log.recovery) == ["state B", "record 17", "record 18"])
  #expect(log.recovery.isCheckpoint(0) && !log.recovery.isCheckpoint(1))
  #expect(log.lastSequence == 18)
  #expect(log.lastCheckpoint?.offset == offsets.second)
  let reader = try DurableJournal.read(path: file.path)
  #expect(reader.firstSequence == 16 && reader.count == 3, "a reader starts there too")
}

@Test func aMissingIndexCostsAFullScanAndIsRebuilt() throws {
  let file = try JournalFile()
  let offsets = try fillWithCheckpoints(file)
  try FileManager.default.removeItem(atPath: file.path + ".checkpoints")
  do {
    let log = try DurableJournal(path: file.path)
    #expect(!log.recovery.startedAtCheckpoint)
    #expect(log.recovery.count == 18)
    #expect(log.recovery.lastCheckpoint == 15)
    #expect(log.lastCheckpoint?.offset == offsets.second)
  }
  let reopened = try DurableJournal(path: file.path)
  #expect(reopened.recovery.startedAtCheckpoint, "the writer listed the checkpoints it found")
}

@Test func anIndexOfAnotherJournalIsIgnored() throws {
  let file = try JournalFile()
  try fillWithCheckpoints(file)
  let other = try JournalFile()
  try fillWithCheckpoints(other)
  try FileManager.default.removeItem(atPath: file.path + ".checkpoints")
  try FileManager.default.copyItem(atPath: other.path + ".checkpoints", toPath: file.path + ".checkpoints")
  let recovery = try DurableJournal.read(path: file.path)
  #expect(!recovery.startedAtCheckpoint)
  #expect(recovery.count == 18)
}

@Test func aTornLastCheckpointIsCutAndOpeningStartsAtThePreviousOne() throws {
  let file = try JournalFile()
  let offsets = try fillWithCheckpoints(file)
  file.bytes = Array(file.bytes[..<(offsets.second + 20)])  // the second checkpoint, torn mid-payload
  let log = try DurableJournal(path: file.path)
  #expect(log.recovery.firstSequence == 11)
  #expect(texts(of: log.recovery) == ["state A"] + (12...15).map { "record \($0)" })
  #expect(log.recovery.droppedBytes == 20)
  #expect(log.lastSequence == 15)
}

@Test func aCorruptCheckpointWithRecordsAfterItIsRefusedWithItsOffset() throws {
  let file = try JournalFile()
  let offsets = try fillWithCheckpoints(file)
  var bytes = file.bytes
  bytes[offsets.second + 17 + 2] ^= 0x40  // inside "state B"
  file.bytes = bytes
  #expect(throws: JournalError.corruptRecord(offset: offsets.second, sequence: 16)) {
    _ = try DurableJournal(path: file.path)
  }
  #expect(throws: JournalError.corruptRecord(offset: offsets.second, sequence: 16)) {
    _ = try DurableJournal.read(path: file.path)
  }
  #expect(file.bytes == bytes, "nothing was changed")
}

@Test func aStaleIndexEntryPastTheEndIsSkipped() throws {
  let file = try JournalFile()
  let offsets = try fillWithCheckpoints(file)
  // Cut the file back to record 13 (as a repair would), then append: the index still names checkpoint 16.
  file.bytes = Array(file.bytes[..<offsets.second])
  var log = try DurableJournal(path: file.path)
  #expect(log.recovery.firstSequence == 11)
  try log.append(payload(16))
  _ = consume log
  let reader = try DurableJournal.read(path: file.path)
  #expect(reader.firstSequence == 11 && reader.count == 6)
}

@Test func aCheckpointLargerThanTheCommandLimitIsWrittenAndRead() throws {
  let file = try JournalFile()
  var log = try DurableJournal(path: file.path)
  try log.append(payload(1))
  let state = [UInt8](repeating: 0x61, count: JournalFormat.maxPayload * 3)
  try log.appendCheckpoint(state)
  try log.append(payload(3))
  _ = consume log
  let recovery = try DurableJournal.read(path: file.path)
  #expect(recovery.firstSequence == 2)
  #expect(Array(recovery.payload(0)) == state)
}

@Test func streamingHandsOverEveryRecordInOrderWithItsType() throws {
  let file = try JournalFile()
  try fillWithCheckpoints(file)
  var seen: [String] = []
  var checkpoints: [UInt64] = []
  let summary = try DurableJournal.stream(path: file.path) { record in
    seen.append(String(decoding: record.payload, as: UTF8.self))
    if record.isCheckpoint { checkpoints.append(record.sequence) }
  }
  #expect(summary.records == 18 && summary.unreadTailBytes == 0)
  #expect(checkpoints == [11, 16])
  #expect(seen.first == "record 1" && seen[10] == "state A" && seen.last == "record 18")
}

@Test func streamingAcrossManyChunksLeavesATornTailUnread() throws {
  let file = try JournalFile()
  var log = try DurableJournal(path: file.path)
  // About 3 MiB of records: the read buffer slides over several chunks.
  let big = [UInt8](repeating: 0x62, count: 100_000)
  for _ in 0..<32 { try log.append(big) }
  _ = consume log
  let whole = file.bytes
  file.bytes = Array(whole.dropLast(5))
  var count = 0
  var progress: [Int] = []
  let summary = try DurableJournal.stream(
    path: file.path, progress: { done, _ in progress.append(done) },
    { record in
      #expect(record.payload.count == big.count)
      count += 1
    })
  #expect(count == 31)
  #expect(summary.unreadTailBytes == 100_000 + 17 - 5)
  #expect(progress.count >= 3 && progress.last == whole.count - 5)
}

@Test func streamingRefusesMidLogCorruptionWhenItReachesIt() throws {
  let file = try JournalFile()
  let offsets = try file.fill(5)
  var bytes = file.bytes
  bytes[offsets[2] + 18] ^= 1
  file.bytes = bytes
  var count = 0
  #expect(throws: JournalError.corruptRecord(offset: offsets[2], sequence: 3)) {
    _ = try DurableJournal.stream(path: file.path) { _ in count += 1 }
  }
  #expect(count == 2)
}

@Test func aRecordFramedInPlaceReadsBackAndSizeSinceTheCheckpointCountsIt() throws {
  let file = try JournalFile()
  var log = try DurableJournal(path: file.path)
  #expect(log.bytesSinceCheckpoint == 0, "a new journal has only its header")
  var framed = JournalFormat.reservedFrame
  framed.append(contentsOf: "framed in place".utf8)
  let sequence = try log.append(framed: &framed)
  #expect(sequence == 1)
  #expect(log.bytesSinceCheckpoint == JournalFormat.frameSize + 15)
  try log.appendCheckpoint(Array("state".utf8))
  #expect(log.bytesSinceCheckpoint == 0)
  try log.append(Array("after".utf8))
  #expect(log.bytesSinceCheckpoint == JournalFormat.frameSize + 5)
  #expect(texts(of: try DurableJournal.read(path: file.path)) == ["state", "after"])
  // Without its index the whole file is read: the framed record is there as written.
  try FileManager.default.removeItem(atPath: file.path + ".checkpoints")
  #expect(texts(of: try DurableJournal.read(path: file.path)) == ["framed in place", "state", "after"])
}
