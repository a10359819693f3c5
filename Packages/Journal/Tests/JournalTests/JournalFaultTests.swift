import Foundation
import Journal
import JournalIO
import Testing

@Test func aFailedSyncIsNotCommittedAndTheJournalRefusesMore() throws {
  let file = try JournalFile()
  try file.fill(2)
  let io = FaultyFileIO()
  var log = try WriteAheadLog(path: file.path, io: io)
  io.failNextSync = Errno(EIO)
  #expect(throws: JournalError.syncFailed(Errno(EIO))) { try log.append(payload(3)) }
  let failed = log.hasFailed
  #expect(failed)
  #expect(log.lastSequence == 2)
  #expect(throws: JournalError.failedEarlier) { try log.append(payload(3)) }
  _ = consume log
  #expect(try file.recoveredTexts() == texts(1...2))
}

@Test func shortWritesAreCompleted() throws {
  let file = try JournalFile()
  let io = FaultyFileIO()
  var log = try WriteAheadLog(path: file.path, io: io)
  io.writeLimit = 3
  for index in 1...3 { try log.append(payload(index)) }
  #expect(io.writeCount > 3 * 8)
  _ = consume log
  #expect(try file.recoveredTexts() == texts(1...3))
}

@Test func runningOutOfSpaceMidRecordLeavesNoPartialRecord() throws {
  let file = try JournalFile()
  try file.fill(2)
  let before = file.bytes
  let io = FaultyFileIO()
  var log = try WriteAheadLog(path: file.path, io: io)
  io.failWritesAfter = (bytes: 10, errno: Errno(ENOSPC))
  #expect(throws: JournalError.writeFailed(Errno(ENOSPC))) { try log.append(payload(3)) }
  #expect(file.bytes == before, "the partial record is cut off")
  #expect(throws: JournalError.failedEarlier) { try log.append(payload(3)) }
  _ = consume log
  var reopened = try DurableJournal(path: file.path)
  #expect(try reopened.append(payload(3)) == 3)
}

@Test func interruptedCallsAreRetried() throws {
  let file = try JournalFile()
  try file.fill(1)
  let io = FaultyFileIO()
  io.interruptions = 2  // the recovery read
  var log = try WriteAheadLog(path: file.path, io: io)
  #expect(log.recovery.count == 1)
  io.interruptions = 3  // the append's write
  try log.append(payload(2))
  _ = consume log
  #expect(try file.recoveredTexts() == texts(1...2))
}

@Test func groupCommitSyncsOncePerBatch() throws {
  let file = try JournalFile()
  let io = FaultyFileIO()
  var log = try WriteAheadLog(path: file.path, io: io)
  let syncsBefore = io.syncCount
  let sequences = try log.append(batch: (1...64).map(payload))
  #expect(sequences == 1...64)
  #expect(io.syncCount == syncsBefore + 1)
  _ = consume log
  #expect(try file.recoveredTexts() == texts(1...64))
}

@Test func aFailedBatchCommitsNoneOfIt() throws {
  let file = try JournalFile()
  try file.fill(1)
  let io = FaultyFileIO()
  var log = try WriteAheadLog(path: file.path, io: io)
  io.failNextSync = Errno(EIO)
  #expect(throws: JournalError.syncFailed(Errno(EIO))) { try log.append(batch: (2...9).map(payload)) }
  _ = consume log
  #expect(try file.recoveredTexts() == texts(1...1))
}
