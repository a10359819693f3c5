import Foundation
import Journal
import Testing

@Test func aReaderReadsTheValidPrefixAndNeverWrites() throws {
  let file = try JournalFile()
  let offsets = try file.fill(3)
  let torn = Array(file.bytes.dropLast(4))
  file.bytes = torn
  let recovery = try DurableJournal.read(path: file.path)
  #expect(recovery.payloads.map { String(decoding: $0, as: UTF8.self) } == texts(1...2))
  #expect(recovery.droppedBytes == torn.count - offsets[2])
  #expect(file.bytes == torn, "a reader leaves a torn tail where it is")
}

@Test func aReaderIsNotBlockedByAWriter() throws {
  let file = try JournalFile()
  try file.fill(2)
  let writer = try DurableJournal(path: file.path)
  #expect(try DurableJournal.read(path: file.path).count == 2)
  _ = consume writer
}

@Test func aReadOnlyJournalCanBeRead() throws {
  let file = try JournalFile()
  try file.fill(1)
  #expect(chmod(file.path, 0o444) == 0)
  #expect(try DurableJournal.read(path: file.path).count == 1)
}

@Test func aWriterSavesATornTailBesideTheJournalBeforeCuttingIt() throws {
  let file = try JournalFile()
  let offsets = try file.fill(2)
  let whole = file.bytes
  file.bytes = Array(whole.dropLast(3))
  let log = try DurableJournal(path: file.path)
  let saved = try #require(log.recovery.savedTailPath)
  #expect(saved == file.path + ".torn-tail")
  #expect(Array(FileManager.default.contents(atPath: saved)!) == Array(whole[offsets[1]..<(whole.count - 3)]))
  #expect(file.bytes.count == offsets[1])
}

@Test func recordsBehindAHeaderCopiedFromAnotherJournalAreRefusedNotDropped() throws {
  let mine = try JournalFile()
  try mine.fill(3)
  let other = try JournalFile()
  try other.fill(1)
  var bytes = mine.bytes
  bytes.replaceSubrange(0..<20, with: other.bytes[0..<20])  // a valid header with another salt
  mine.bytes = bytes
  #expect(throws: JournalError.foreignRecords(offset: 20)) { _ = try DurableJournal(path: mine.path) }
  #expect(throws: JournalError.foreignRecords(offset: 20)) { _ = try DurableJournal.read(path: mine.path) }
  #expect(mine.bytes == bytes, "nothing is truncated")
}

@Test(arguments: ["/dev/null", "fifo"])
func aPathThatIsNotARegularFileIsRefused(kind: String) throws {
  let file = try JournalFile()
  var path = kind
  if kind == "fifo" {
    path = file.folder.appendingPathComponent("fifo").path
    #expect(mkfifo(path, 0o644) == 0)
  }
  #expect(throws: JournalError.notARegularFile(path: path)) { _ = try DurableJournal(path: path) }
  #expect(throws: JournalError.notARegularFile(path: path)) { _ = try DurableJournal.read(path: path) }
  #expect(throws: JournalError.notARegularFile(path: path)) { _ = try DurableJournal.repair(path: path) }
}

@Test func repairingAMissingJournalCreatesNothing() throws {
  let file = try JournalFile()
  #expect(throws: JournalError.missing(path: file.path)) { _ = try DurableJournal.repair(path: file.path) }
  #expect(!FileManager.default.fileExists(atPath: file.path))
}
