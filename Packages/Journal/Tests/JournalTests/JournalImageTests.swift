import Foundation
import Testing

@testable import Journal

/// The records of the journal at `path` as `JournalImage` takes them, streamed from the file.
private func imageRecords(_ path: String) throws -> [JournalImage.Record] {
  var records: [JournalImage.Record] = []
  _ = try DurableJournal.stream(path: path) { record in
    let type =
      record.lost != nil
      ? JournalFormat.lostType : record.isCheckpoint ? JournalFormat.checkpointType : JournalFormat.commandType
    records.append(JournalImage.Record(type: type, sequence: record.sequence, payload: Array(record.payload)))
  }
  return records
}

@Test(arguments: [JournalFormat.encoderVersion, JournalFormat.canonicalVersion])
func aJournalsPartsMakeItsVeryBytesAgain(version: UInt16) throws {
  let file = try JournalFile()
  var log = try DurableJournal(path: file.path, newFileVersion: version)
  for index in 1...10 { try log.append(payload(index)) }
  try log.appendCheckpoint(Array("state A".utf8))
  try log.append(payload(12))
  let salt = log.salt
  _ = consume log
  let rebuilt = try JournalImage.bytes(salt: salt, version: version, records: try imageRecords(file.path))
  #expect(rebuilt == file.bytes)
}

@Test func partsNoWriterCouldHaveWrittenAreRefused() throws {
  let record = JournalImage.Record(type: JournalFormat.commandType, sequence: 1, payload: Array("x".utf8))
  #expect(throws: JournalImage.Refusal.self) { try JournalImage.bytes(salt: 7, version: 9, records: [record]) }
  var skipped = record
  skipped.sequence = 2
  #expect(throws: JournalImage.Refusal(description: "record 1 is numbered 2")) {
    try JournalImage.bytes(salt: 7, version: 3, records: [skipped])
  }
  var untyped = record
  untyped.type = 9
  #expect(throws: JournalImage.Refusal.self) { try JournalImage.bytes(salt: 7, version: 3, records: [untyped]) }
  var long = record
  long.payload = [UInt8](repeating: 0x61, count: JournalFormat.maxPayload + 1)
  #expect(throws: JournalImage.Refusal.self) { try JournalImage.bytes(salt: 7, version: 3, records: [long]) }
}
