import Foundation
import Journal
import Testing

@Test func openingFromAnAnchorReadsOnlyWhatFollowsIt() throws {
  let file = try JournalFile()
  var anchor: JournalAnchor
  do {
    var log = try DurableJournal(path: file.path)
    for index in 1...4 { try log.append(payload(index)) }
    anchor = log.endAnchor
    for index in 5...6 { try log.append(payload(index)) }
  }
  #expect(anchor.sequence == 5)
  do {
    var log = try DurableJournal(path: file.path, from: anchor)
    #expect(log.recovery.firstSequence == 5)
    #expect(log.recovery.payloads.map { String(decoding: $0, as: UTF8.self) } == texts(5...6))
    #expect(log.lastSequence == 6)
    try log.append(payload(7))
  }
  #expect(try file.recoveredTexts() == texts(1...7), "appending after an anchored open continues the file")
}

@Test func anAnchorAtTheEndReadsNothingAndTheNextRecordFollowsOn() throws {
  let file = try JournalFile()
  let anchor: JournalAnchor
  do {
    var log = try DurableJournal(path: file.path)
    for index in 1...3 { try log.append(payload(index)) }
    anchor = log.endAnchor
  }
  do {
    var log = try DurableJournal(path: file.path, from: anchor)
    #expect(log.recovery.count == 0)
    #expect(log.lastSequence == 3)
    try log.append(payload(4))
  }
  #expect(try file.recoveredTexts() == texts(1...4))
}

@Test func anAnchorThatDoesNotHoldReadsTheWholeFile() throws {
  let file = try JournalFile()
  let offsets = try file.fill(5)
  let salt = try #require(DurableJournal.salt(ofHeader: file.bytes))
  let cases: [(String, JournalAnchor)] = [
    (
      "past the end (a file cut back or restored)",
      JournalAnchor(offset: file.bytes.count + 17, sequence: 6, salt: salt)
    ),
    ("another file's", JournalAnchor(offset: offsets[3], sequence: 4, salt: salt &+ 1)),
    ("the wrong number", JournalAnchor(offset: offsets[3], sequence: 9, salt: salt)),
    ("inside a record", JournalAnchor(offset: offsets[3] + 3, sequence: 4, salt: salt)),
  ]
  for (name, anchor) in cases {
    let log = try DurableJournal(path: file.path, from: anchor)
    #expect(log.recovery.firstSequence == 1, "\(name)")
    #expect(log.recovery.count == 5, "\(name)")
  }
}
