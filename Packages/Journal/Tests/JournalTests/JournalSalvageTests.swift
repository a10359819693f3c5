import Foundation
import Journal
import Testing

/// Every record the stream hands over: its text, or what its placeholder stands for.
private func streamed(_ path: String) throws -> [String] {
  var seen: [String] = []
  _ = try DurableJournal.stream(path: path) { record in
    seen.append(record.lost.map { "lost \($0)" } ?? String(decoding: record.payload, as: UTF8.self))
  }
  return seen
}

@Test func repairReplacesADamagedCheckpointInPlaceAndKeepsTheRecordsAfterIt() throws {
  let file = try JournalFile()
  let offsets = try fillWithCheckpoints(file)
  var bytes = file.bytes
  bytes[offsets.second + 17 + 2] ^= 0x40  // inside "state B"
  file.bytes = bytes

  let report = try DurableJournal.repair(path: file.path)
  #expect(report.lost.map(\.sequence) == [16] && report.lost.map(\.record) == [.checkpoint])
  #expect(report.droppedBytes == 0 && report.keptRecords == 17)
  #expect(Array(FileManager.default.contents(atPath: file.path + ".corrupt")!) == bytes, "the original is kept")
  #expect(file.bytes.count == bytes.count, "the placeholder fills exactly the damaged record's bytes")
  #expect(Array(file.bytes[..<offsets.second]) == Array(bytes[..<offsets.second]), "nothing before it changes")

  do {
    var log = try DurableJournal(path: file.path)
    #expect(log.recovery.firstSequence == 11, "opening falls back to the checkpoint before it")
    #expect(log.recovery.lost(5) == .checkpoint)
    #expect(try log.append(payload(19)) == 19, "numbering carries on after the salvaged records")
  }
  #expect(
    try streamed(file.path) == texts(1...10) + ["state A"] + texts(12...15) + ["lost checkpoint"] + texts(17...19))
  #expect(try DurableJournal.repair(path: file.path).backupPath == nil, "a second repair finds nothing to do")
}

@Test func repairKeepsEverythingAfterADamagedCommandThatACheckpointFollows() throws {
  let file = try JournalFile()
  let offsets = try fillWithCheckpoints(file)
  var bytes = file.bytes
  let record13 = offsets.first + (17 + 7) + (17 + 9)  // after "state A" and record 12
  bytes[record13 + 17 + 3] ^= 0x01
  file.bytes = bytes
  #expect(throws: JournalError.corruptRecord(offset: record13, sequence: 13)) {
    try DurableJournal.stream(path: file.path) { _ in }
  }

  let report = try DurableJournal.repair(path: file.path)
  #expect(report.lost.map(\.sequence) == [13] && report.lost.map(\.record) == [.command])
  #expect(report.droppedBytes == 0 && report.keptRecords == 17)
  #expect(
    try streamed(file.path) == texts(1...10) + ["state A", "record 12", "lost command"] + texts(14...15) + ["state B"]
      + texts(17...18))
  let log = try DurableJournal(path: file.path)
  #expect(log.recovery.firstSequence == 16, "opening starts at the checkpoint after the damage")
}

@Test func aDamagedLengthFieldIsSalvagedAsRecordsOfUnknownType() throws {
  let file = try JournalFile()
  let offsets = try fillWithCheckpoints(file)
  var bytes = file.bytes
  let record12 = offsets.first + (17 + 7)
  bytes[record12] ^= 0x80  // the length of record 12: its frame no longer says where record 13 starts
  file.bytes = bytes

  let report = try DurableJournal.repair(path: file.path)
  #expect(report.lost.map(\.sequence) == [12] && report.lost.map(\.record) == [.unknown])
  #expect(file.bytes.count == bytes.count)
  #expect(try streamed(file.path)[11] == "lost unknown")
}

@Test func aLostCommandIsNeverDecodedAsIfNothingWereMissing() throws {
  let file = try JournalFile()
  let offsets = try fillWithCheckpoints(file)
  var bytes = file.bytes
  bytes[offsets.first + (17 + 7) + 17 + 2] ^= 0x01  // inside record 12
  file.bytes = bytes
  _ = try DurableJournal.repair(path: file.path)
  try FileManager.default.removeItem(atPath: file.path + ".checkpoints")  // read the whole file
  let recovery = try DurableJournal.read(path: file.path)
  #expect(recovery.firstSequence == 1 && recovery.lostCount == 1)
  #expect(throws: JournalError.lostRecord(sequence: 12)) { _ = try recovery.decodedEntries(as: String.self, from: 11) }
  #expect(recovery.lost(11) == .command && recovery.lost(10) == nil)
}

@Test func aDamagedCommandWithNoCheckpointAfterItIsCutAndKeptInTheBackup() throws {
  let file = try JournalFile()
  let offsets = try fillWithCheckpoints(file)
  var bytes = file.bytes
  let record17 = offsets.second + 17 + 7
  bytes[record17 + 17 + 1] ^= 0x01
  file.bytes = bytes

  let report = try DurableJournal.repair(path: file.path)
  #expect(report.lost.isEmpty && report.keptRecords == 16 && report.droppedBytes == bytes.count - record17)
  #expect(Array(FileManager.default.contents(atPath: file.path + ".corrupt")!) == bytes)
}

/// A ledger's entry lost to damage and known again (the till's journal holds
/// the processor's answer word for word) is written back under its own number.
@Test func aLostEntryKnownAgainIsWrittenBackUnderItsNumberAndTheFileIsWhole() throws {
  struct Entry: Codable, Equatable { var reference: String }
  let file = try JournalFile()
  do {
    var log = try DurableJournal(path: file.path)
    for number in 1...3 { try log.append(Entry(reference: "ch_\(number)")) }
  }
  let whole = file.bytes
  var bytes = whole
  bytes[20 + 17 + 5] ^= 0x01  // inside the first entry, two after it
  file.bytes = bytes
  #expect(try DurableJournal.repair(path: file.path, recordsStandAlone: true).lost.map(\.sequence) == [1])
  #expect(throws: JournalError.self) {
    try DurableJournal.restoreLost(path: file.path + ".missing", entries: [1: Entry(reference: "ch_1")])
  }
  #expect(try DurableJournal.restoreLost(path: file.path, entries: [7: Entry(reference: "ch_7")]).isEmpty)

  let restored = try DurableJournal.restoreLost(path: file.path, entries: [1: Entry(reference: "ch_1")])
  #expect(restored == [1])
  #expect(file.bytes == whole, "the same entry under the same number: the file as it was before the damage")
  #expect(!FileManager.default.fileExists(atPath: file.path + ".restoring"))
  let log = try DurableJournal(path: file.path)
  #expect(try log.recovery.decodedEntries(as: Entry.self).map(\.reference) == ["ch_1", "ch_2", "ch_3"])
}

@Test func writingBackRefusesADamagedFile() throws {
  let file = try JournalFile()
  do {
    var log = try DurableJournal(path: file.path)
    for index in 1...3 { try log.append(payload(index)) }
  }
  var bytes = file.bytes
  bytes[20 + 17 + 3] ^= 0x01
  file.bytes = bytes
  #expect(throws: JournalError.corruptRecord(offset: 20, sequence: 1)) {
    try DurableJournal.restoreLost(path: file.path, environment: PosixJournalEnvironment(), records: [1: payload(1)])
  }
  #expect(file.bytes == bytes, "nothing written")
}
