import Foundation
import Journal
import KioskCommands
import Tabs
import Testing

@testable import KioskApp

// A till's name in its chain is kept in its own journal: a `tillNamed` record,
// carried by every later checkpoint and into every later day, so that opening
// the till, a reader without a lock and the next day all know it.

@MainActor
@Test(arguments: [JournalFormat.encoderVersion, JournalFormat.canonicalVersion])
func aTillsNameOutlivesCheckpointsReopeningAndTheDaysClose(version: UInt16) async throws {
  let journal = try TemporaryJournal()
  var shell: TillShell? = try await journal.openTill(newFileVersion: version)
  #expect(shell?.tillName == nil)
  #expect(try HeadOfficeSync.keptName(journal: journal.path) == nil)
  try await shell?.nameTill("north")
  try await shell?.nameTill("north")  // the same name again journals nothing
  let ada = try #require(try await shell?.openTab(for: "Ada"))
  try shell?.store.checkpoint()
  try await shell?.add(latte, to: ada)
  shell = nil

  // Reopened: the checkpoint, not the record before it, gives the name.
  shell = try await journal.openTill(newFileVersion: version)
  #expect(shell?.tillName == "north")
  #expect(try HeadOfficeSync.keptName(journal: journal.path) == "north")
  _ = try await shell?.closeDay()
  shell = nil

  // The next day opens with a checkpoint that carries it.
  #expect(try HeadOfficeSync.keptName(journal: journal.path) == "north")
  #expect(try await journal.openTill(newFileVersion: version).tillName == "north")
  var named: [Int] = []
  _ = try KioskJournalReader.walk(path: KioskSegments.archivePath(of: journal.path, day: 1)) { sequence, entry in
    if case .record(.tillNamed("north")) = entry { named.append(sequence) }
  }
  #expect(named == [2], "one record, after the first")
  for segment in KioskSegments.all(of: journal.path) { _ = try KioskVerifier.replay(path: segment.path) }
}

@MainActor
@Test func aNameNoTillMayHaveIsRefusedAndNothingJournaled() async throws {
  let journal = try TemporaryJournal()
  let shell = try await journal.openTill()
  func size() throws -> Int { try FileManager.default.attributesOfItem(atPath: journal.path)[.size] as? Int ?? -1 }
  let before = try size()
  await #expect(throws: TillError.invalidTillName("north\nsouth")) { try await shell.nameTill("north\nsouth") }
  await #expect(throws: TillError.invalidTillName("")) { try await shell.nameTill("") }
  #expect(try size() == before)
  #expect(shell.tillName == nil)
}

@MainActor
@Test func aCheckpointThatNamesAnotherTillThanItsRecordsFailsVerify() async throws {
  let journal = try TemporaryJournal()
  do {
    // Format 2: a checkpoint the encoder writes, as the test's own is.
    let shell = try await journal.openTill(newFileVersion: JournalFormat.encoderVersion)
    try await shell.nameTill("north")
    _ = try await shell.openTab(for: "Ada")
    try shell.store.checkpoint()
  }
  // Given: the checkpoint written again as if the till had another name.
  var log = try DurableJournal(path: journal.path)
  let payload = try #require(log.recovery.lastCheckpoint.map { log.recovery.payload($0) })
  var checkpoint = try KioskCheckpoint.decoded(from: payload)
  checkpoint.till = "south"
  try log.appendCheckpoint(checkpoint)
  #expect(throws: KioskVerifier.Failure.self) { try KioskVerifier.replay(path: journal.path) }
}
