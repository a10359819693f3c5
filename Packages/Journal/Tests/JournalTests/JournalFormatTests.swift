import Foundation
import Journal
import Testing

@Test func crc32cMatchesTheStandardCheckValue() {
  #expect(CRC32C.checksum(Array("123456789".utf8)) == 0xE306_9283)
  #expect(CRC32C.checksum([]) == 0)
  let whole = CRC32C.checksum(Array("hello, journal".utf8))
  let split = CRC32C.checksum(Array(", journal".utf8), seed: CRC32C.checksum(Array("hello".utf8)))
  #expect(whole == split)
}

@Test func aNewJournalIsAHeaderOfTwentyBytesWithTheMagic() throws {
  let file = try JournalFile()
  let log = try DurableJournal(path: file.path)
  #expect(log.recovery.created)
  #expect(log.lastSequence == 0)
  #expect(file.bytes.count == JournalFormat.headerSize)
  #expect(Array(file.bytes.prefix(4)) == Array("KJNL".utf8))
}

@Test func recordsAreFramedAsDocumented() throws {
  let file = try JournalFile()
  try file.fill(1)
  let bytes = file.bytes
  let frame = Array(bytes[JournalFormat.headerSize...])
  #expect(frame.count == JournalFormat.frameSize + 8)
  #expect(Array(frame[0..<4]) == [8, 0, 0, 0])  // length, little-endian
  #expect(frame[8] == JournalFormat.commandType)
  #expect(Array(frame[9..<17]) == [1, 0, 0, 0, 0, 0, 0, 0])  // sequence 1
  #expect(Array(frame[17...]) == payload(1))
}

@Test func appendedRecordsComeBackInOrderAfterReopening() throws {
  let file = try JournalFile()
  try file.fill(3)
  var log = try DurableJournal(path: file.path)
  #expect(log.recovery.count == 3)
  #expect(log.recovery.droppedBytes == 0)
  #expect(!log.recovery.created)
  #expect(try log.append(payload(4)) == 4)
  _ = consume log
  #expect(try file.recoveredTexts() == texts(1...4))
}

@Test func entriesRoundTripAsJSON() throws {
  struct Note: Codable, Equatable { var text: String }
  let file = try JournalFile()
  do {
    var log = try DurableJournal(path: file.path)
    try log.append(Note(text: "open"))
    try log.append(entries: [Note(text: "add"), Note(text: "settle")])
  }
  let log = try DurableJournal(path: file.path)
  #expect(try log.recoveredEntries(as: Note.self).map(\.text) == ["open", "add", "settle"])
}

@Test func anOversizedPayloadIsRefusedAndNothingIsWritten() throws {
  let file = try JournalFile()
  var log = try DurableJournal(path: file.path)
  let before = file.bytes
  #expect(throws: JournalError.payloadTooLarge(JournalFormat.maxPayload + 1)) {
    try log.append([UInt8](repeating: 1, count: JournalFormat.maxPayload + 1))
  }
  #expect(file.bytes == before)
  let failed = log.hasFailed
  #expect(!failed)
}

@Test func aFileThatIsNotAJournalIsRefused() throws {
  let file = try JournalFile()
  file.bytes = Array("menu,price\nlatte,4.5\n".utf8)
  #expect(throws: JournalError.notAJournal(path: file.path)) { _ = try DurableJournal(path: file.path) }
  #expect(file.bytes == Array("menu,price\nlatte,4.5\n".utf8))
}

@Test func anUnknownVersionIsRefused() throws {
  let file = try JournalFile()
  try file.fill(1)
  var bytes = file.bytes
  bytes[4] = 4  // version 4, with a header CRC that matches it
  let crc = CRC32C.checksum(Array(bytes[0..<16]))
  bytes.replaceSubrange(16..<20, with: withUnsafeBytes(of: crc.littleEndian) { Array($0) })
  file.bytes = bytes
  #expect(throws: JournalError.unsupportedVersion(4)) { _ = try DurableJournal(path: file.path) }
}

@Test func aHeaderWhoseReservedFieldIsNotZeroIsRefused() throws {
  let file = try JournalFile()
  try file.fill(1)
  var bytes = file.bytes
  bytes[6] = 1  // reserved = 1, with a header CRC that matches it
  let crc = CRC32C.checksum(Array(bytes[0..<16]))
  bytes.replaceSubrange(16..<20, with: withUnsafeBytes(of: crc.littleEndian) { Array($0) })
  file.bytes = bytes
  #expect(throws: JournalError.unsupportedHeaderField(1)) { _ = try DurableJournal(path: file.path) }
  #expect(file.bytes == bytes)
}

@Test func aNewJournalGetsTheVersionItsCreatorAsksForAndKeepsIt() throws {
  let file = try JournalFile()
  do {
    var journal = try DurableJournal(path: file.path, newFileVersion: JournalFormat.encoderVersion)
    #expect(journal.version == 2)
    try journal.append([1])
  }
  #expect(file.bytes[4] == 2)
  // A later writer asking for another version for new files keeps the file's.
  let reopened = try DurableJournal(path: file.path, newFileVersion: JournalFormat.canonicalVersion)
  #expect(reopened.version == 2)
  #expect(reopened.recovery.version == 2)
  #expect(try DurableJournal.read(path: file.path).version == 2)
}

@Test func aJournalCreatedWithoutAVersionIsTheNewest() throws {
  let file = try JournalFile()
  do {
    var journal = try DurableJournal(path: file.path)
    #expect(journal.version == JournalFormat.canonicalVersion)
    try journal.append([1])
  }
  #expect(file.bytes[4] == 3)
  var seen: [UInt16] = []
  _ = try DurableJournal.stream(path: file.path) { seen.append($0.version) }
  #expect(seen == [3])
}

@Test func aCorruptHeaderIsRefused() throws {
  let file = try JournalFile()
  try file.fill(1)
  file.bytes[10] ^= 0x40  // inside the salt
  #expect(throws: JournalError.corruptHeader(path: file.path)) { _ = try DurableJournal(path: file.path) }
}

@Test func aTornHeaderIsRewrittenAndCounted() throws {
  let file = try JournalFile()
  file.bytes = Array("KJN".utf8)
  let log = try DurableJournal(path: file.path)
  #expect(log.recovery.droppedBytes == 3)
  #expect(log.recovery.count == 0)
  #expect(file.bytes.count == JournalFormat.headerSize)
}

/// An entry that writes its own bytes, which the journal frames in place.
private struct SelfWritten: JournalEncodable {
  var text: String
  func writeJournal(to writer: inout JournalJSONWriter) -> Bool {
    writer.beginObject()
    writer.key("text")
    writer.string(text)
    writer.endObject()
    return true
  }
}

@Test func aSelfWrittenEntryIsFramedInPlaceAsItsBytesAppendedWouldBe() throws {
  // The same salt for both journals, so the CRCs are comparable byte for byte.
  let framed = try JournalFile()
  let plain = try JournalFile()
  do { _ = try DurableJournal(path: framed.path) }
  plain.bytes = framed.bytes
  let entries = ["open", "a \"quoted\" name", String(repeating: "long ", count: 200)].map(SelfWritten.init)
  do {
    var inPlace = try DurableJournal(path: framed.path)
    var fromBytes = try DurableJournal(path: plain.path)
    for entry in entries {
      #expect(try inPlace.append(entry) == fromBytes.append(JournalJSONWriter.bytes(of: entry)))
    }
  }
  #expect(framed.bytes == plain.bytes)
  let reopened = try DurableJournal(path: framed.path)
  #expect(reopened.recovery.count == 3)
  #expect(reopened.recovery.droppedBytes == 0)
}

@Test func theInstructionAndTheTableGiveTheSameChecksums() {
  var generator = SystemRandomNumberGenerator()
  for length in [0, 1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 1000, 4099] {
    let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
    let seed = UInt32.random(in: 0...UInt32.max, using: &generator)
    bytes.withUnsafeBytes { raw in
      #expect(CRC32C.update(seed, raw) == CRC32C.tableUpdate(seed, raw), "length \(length)")
      // Any split gives the same as the whole, whichever way each half is computed.
      let half = length / 2
      let first = CRC32C.update(seed, UnsafeRawBufferPointer(rebasing: raw[..<half]))
      #expect(CRC32C.tableUpdate(first, UnsafeRawBufferPointer(rebasing: raw[half...])) == CRC32C.update(seed, raw))
    }
  }
}

/// An entry that leaves itself to `JSONEncoder` in a journal of version 2.
private struct EncodedInVersion2: JournalEncodable {
  var text: String
  func writeJournal(to writer: inout JournalJSONWriter) -> Bool {
    writer.beginObject()
    // It begins, then leaves version 2 to the encoder: what it began must not stay.
    guard writer.canonical else { return false }
    writer.key("text")
    writer.string(text)
    writer.endObject()
    return true
  }
}

@Test(arguments: [JournalFormat.encoderVersion, JournalFormat.canonicalVersion])
func appendingAnEntryWritesAfterTheBytesThereWhatItsBytesAloneHold(version: UInt16) throws {
  let prefix: [UInt8] = Array(repeating: 0, count: JournalFormat.frameSize) + Array("kept".utf8)
  for entry in [EncodedInVersion2(text: "a/b \"c\""), EncodedInVersion2(text: "")] {
    var out = prefix
    try JournalJSONWriter.append(entry, version: version, to: &out)
    #expect(Array(out.prefix(prefix.count)) == prefix, "the bytes already there stay")
    #expect(Array(out.dropFirst(prefix.count)) == (try JournalJSONWriter.bytes(of: entry, version: version)))
  }
}
