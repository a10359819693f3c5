import Foundation
import Journal
import JournalIO
import Testing

// A writer zeroes space ahead of its records, so that its commits write over
// space written before (docs/journal.md, "Space ahead"). These pin what that
// changes: the file while a writer holds it, and what a crash can leave.

/// The file's bytes with `count` zeros written ahead, as a writer killed while it held the journal leaves it.
private func withZerosAhead(_ bytes: [UInt8], _ count: Int = 64 << 10) -> [UInt8] {
  bytes + [UInt8](repeating: 0, count: count)
}

@Test func aHandleWritesZerosAheadFromItsSecondCommitAndClosingCutsThem() throws {
  let file = try JournalFile()
  var log = try DurableJournal(path: file.path)
  try log.append(payload(1))
  #expect(file.bytes.count == log.size, "a handle that commits once (a till command) writes no zeros")
  try log.append(payload(2))
  let held = file.bytes
  #expect(held.count >= log.size + 64 << 10)
  #expect(held[log.size...].allSatisfy { $0 == 0 })
  try log.append(batch: (3...40).map(payload))
  #expect(file.bytes.count == held.count, "later commits write over the zeros: the file's length stays")
  let end = log.size
  _ = consume log
  #expect(file.bytes.count == end, "closing cuts the zeros")
  #expect(try file.recoveredTexts() == texts(1...40))
}

@Test func zerosAheadThatACrashLeftAreNotATornTailAndAreWrittenOver() throws {
  let file = try JournalFile()
  try file.fill(2)
  let clean = file.bytes
  file.bytes = withZerosAhead(clean)

  let read = try DurableJournal.read(path: file.path)
  #expect(read.count == 2)
  #expect(read.droppedBytes == 0, "a reader leaves nothing unread")
  let streamed = try DurableJournal.stream(path: file.path) { _ in }
  #expect(streamed.records == 2)
  #expect(streamed.unreadTailBytes == 0)
  #expect(streamed.recordsEnd == clean.count)
  #expect(DurableJournal.recordsEnd(path: file.path) == clean.count)
  #expect(try DurableJournal.repair(path: file.path) == JournalRepair(keptRecords: 2, droppedBytes: 0, backupPath: nil))

  var log = try DurableJournal(path: file.path)
  #expect(log.recovery.count == 2)
  #expect(log.recovery.droppedBytes == 0)
  #expect(log.recovery.savedTailPath == nil, "nothing is kept beside it: nothing was torn")
  #expect(log.size == clean.count)
  #expect(try log.append(payload(3)) == 3)
  #expect(file.bytes.count == clean.count + 64 << 10, "the first commit after the crash writes over the zeros")
  _ = consume log
  #expect(try file.recoveredTexts() == texts(1...3))
  #expect(try FileManager.default.contentsOfDirectory(atPath: file.folder.path) == ["kiosk.journal"])
}

@Test func aWriteTornInsideTheZerosAheadIsCutAndKeptBesideTheJournal() throws {
  let file = try JournalFile()
  let offsets = try file.fill(3)
  let whole = file.bytes
  let clean = Array(whole[..<offsets[2]])
  let third = Array(whole[offsets[2]...])
  // Every length the third record's write can have reached, the zeros after it untouched.
  for reached in 1..<third.count {
    let written = Array(third[..<reached])
    // A torn record's own zeros cannot be told from the zeros ahead: they are not counted.
    let torn = Array(written[..<(written.lastIndex { $0 != 0 }.map { $0 + 1 } ?? 0)])
    file.bytes = withZerosAhead(clean + written, 8192)

    #expect(try DurableJournal.read(path: file.path).droppedBytes == torn.count, "reached \(reached)")
    #expect(try DurableJournal.stream(path: file.path) { _ in }.unreadTailBytes == torn.count, "reached \(reached)")
    #expect(DurableJournal.recordsEnd(path: file.path) == clean.count, "reached \(reached)")

    var log = try DurableJournal(path: file.path)
    #expect(log.recovery.count == 2, "reached \(reached)")
    #expect(log.recovery.droppedBytes == torn.count, "reached \(reached)")
    let saved = try #require(log.recovery.savedTailPath)
    #expect(FileManager.default.contents(atPath: saved).map(Array.init) == torn, "reached \(reached)")
    try FileManager.default.removeItem(atPath: saved)
    #expect(file.bytes == clean, "the torn write and the zeros are cut")
    #expect(try log.append(payload(3)) == 3)
  }
  #expect(try file.recoveredTexts() == texts(1...3))
}

@Test func aReadPointBelowTheZerosAheadSeesNothingAppendedAfterIt() throws {
  let file = try JournalFile()
  var log = try DurableJournal(path: file.path)
  for index in 1...3 { try log.append(payload(index)) }
  try log.appendCheckpoint(Array("state".utf8))
  try log.append(payload(5))
  #expect(file.bytes.count > log.size, "the writer holds zeros ahead")
  let point = DurableJournal.recordsEnd(path: file.path)
  #expect(point == log.size)
  for index in 6...9 { try log.append(payload(index)) }
  let seen = try DurableJournal.read(path: file.path, endingAt: point)
  #expect(seen.count == 2, "the checkpoint and record 5, read from the checkpoint")
  #expect(seen.droppedBytes == 0)
  #expect(try DurableJournal.stream(path: file.path, endingAt: point) { _ in }.records == 5)
}

@Test func renamingTheJournalCutsTheZerosAheadFirst() throws {
  let file = try JournalFile()
  var log = try DurableJournal(path: file.path)
  for index in 1...3 { try log.append(payload(index)) }
  let archive = file.folder.appendingPathComponent("day-1.journal").path
  try log.rename(to: archive)
  #expect(FileManager.default.contents(atPath: archive)?.count == log.size, "an archive ends with its last record")
  try log.append(payload(4))
  try log.append(payload(5))
  #expect(try DurableJournal.read(path: archive).count == 5)
}

@Test func zerosAheadThatDoNotFitAreGivenUpAndTheRecordStillCommits() throws {
  let file = try JournalFile()
  let io = FaultyFileIO()
  var log = try WriteAheadLog(path: file.path, io: io)
  try log.append(payload(1))
  io.refuseWritesOver = 1024
  #expect(try log.append(payload(2)) == 2)
  let failed = log.hasFailed
  #expect(!failed, "no space ahead is no failure")
  #expect(file.bytes.count == log.size, "the zeros that did not fit are not left half written")
  io.refuseWritesOver = nil
  try log.append(payload(3))
  _ = consume log
  #expect(try file.recoveredTexts() == texts(1...3))
}
