import Foundation
import Journal
import Testing

@Test func truncatingAtEveryByteOfTheLastRecordDropsOnlyThatRecord() throws {
  let file = try JournalFile()
  let offsets = try file.fill(3)
  let whole = file.bytes
  for cut in offsets[2]..<whole.count {
    file.bytes = Array(whole[..<cut])
    var log = try DurableJournal(path: file.path)
    #expect(log.recovery.count == 2, "cut at \(cut)")
    // Zeros that end a torn record cannot be told from zeros written ahead: not counted.
    let torn = whole[offsets[2]..<cut].lastIndex { $0 != 0 }.map { $0 + 1 - offsets[2] } ?? 0
    #expect(log.recovery.droppedBytes == torn, "cut at \(cut)")
    #expect(file.bytes.count == offsets[2], "the tail is truncated on disk")
    #expect(try log.append(payload(3)) == 3, "appends continue the sequence")
  }
  #expect(try file.recoveredTexts() == texts(1...3))
}

@Test func garbageOverTheLastRecordIsATornTail() throws {
  var generator = SystemRandomNumberGenerator()
  let file = try JournalFile()
  let offsets = try file.fill(4)
  let whole = file.bytes
  for _ in 0..<50 {
    var bytes = whole
    for index in offsets[3]..<bytes.count { bytes[index] = UInt8.random(in: 0...255, using: &generator) }
    file.bytes = bytes
    let log = try DurableJournal(path: file.path)
    #expect(log.recovery.count == 3)
    // Garbage that happens to end in zeros: those cannot be told from zeros written ahead.
    let torn = bytes.lastIndex { $0 != 0 }.map { max($0 + 1 - offsets[3], 0) } ?? 0
    #expect(log.recovery.droppedBytes == torn)
  }
}

@Test func aBitFlipInAMiddleRecordRefusesToOpenAndNamesTheRecord() throws {
  let file = try JournalFile()
  let offsets = try file.fill(5)
  let whole = file.bytes
  // Every byte of record 3 (length, CRC, type, sequence, payload), each bit in turn.
  for position in offsets[2]..<offsets[3] {
    for bit in [0, 3, 7] {
      var bytes = whole
      bytes[position] ^= 1 << bit
      file.bytes = bytes
      #expect(throws: JournalError.corruptRecord(offset: offsets[2], sequence: 3)) {
        _ = try DurableJournal(path: file.path)
      }
      #expect(file.bytes == bytes, "a refused journal is not modified")
    }
  }
}

@Test func aCorruptLengthFieldIsCaughtInTheMiddleAndTruncatedAtTheEnd() throws {
  let file = try JournalFile()
  let offsets = try file.fill(3)
  let whole = file.bytes
  var middle = whole
  middle.replaceSubrange(offsets[1]..<offsets[1] + 4, with: [0xFF, 0xFF, 0xFF, 0x7F])
  file.bytes = middle
  #expect(throws: JournalError.corruptRecord(offset: offsets[1], sequence: 2)) {
    _ = try DurableJournal(path: file.path)
  }
  var last = whole
  last.replaceSubrange(offsets[2]..<offsets[2] + 4, with: [0xFF, 0xFF, 0xFF, 0x7F])
  file.bytes = last
  let log = try DurableJournal(path: file.path)
  #expect(log.recovery.count == 2)
}

@Test func aRecordCopiedFromAnotherJournalNeverValidates() throws {
  let other = try JournalFile()
  let otherOffsets = try other.fill(2)
  let foreign = Array(other.bytes[otherOffsets[1]...])  // its record 2, under its salt

  let file = try JournalFile()
  let offsets = try file.fill(1)
  _ = offsets
  file.bytes += foreign  // where record 2 would go
  let log = try DurableJournal(path: file.path)
  #expect(log.recovery.count == 1)
  #expect(log.recovery.droppedBytes == foreign.count)
}

@Test func repairKeepsABackupAndTruncatesToTheLastGoodRecord() throws {
  let file = try JournalFile()
  let offsets = try file.fill(4)
  var bytes = file.bytes
  bytes[offsets[1] + 20] ^= 0xFF
  file.bytes = bytes
  #expect(throws: JournalError.self) { _ = try DurableJournal(path: file.path) }

  let report = try DurableJournal.repair(path: file.path)
  #expect(
    report == JournalRepair(keptRecords: 1, droppedBytes: bytes.count - offsets[1], backupPath: file.path + ".corrupt"))
  #expect(Array(FileManager.default.contents(atPath: file.path + ".corrupt")!) == bytes)
  #expect(try file.recoveredTexts() == texts(1...1))
  #expect(try DurableJournal.repair(path: file.path) == JournalRepair(keptRecords: 1, droppedBytes: 0, backupPath: nil))
}
