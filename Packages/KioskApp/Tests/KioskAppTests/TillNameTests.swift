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
  var shell: KioskShell? = try journal.openShell(newFileVersion: version)
  #expect(shell?.tillName == nil)
  #expect(try HeadOfficeSync.keptName(journal: journal.path) == nil)
  try shell?.nameTill("north")
  try shell?.nameTill("north")  // the same name again journals nothing
  let ada = try #require(try shell?.openTab(for: "Ada"))
  try shell?.writeCheckpoint()
  try shell?.add(latte, to: ada)
  shell = nil

  // Reopened: the checkpoint, not the record before it, gives the name.
  shell = try journal.openShell(newFileVersion: version)
  #expect(shell?.tillName == "north")
  #expect(try HeadOfficeSync.keptName(journal: journal.path) == "north")
  _ = try shell?.closeDay()
  shell = nil

  // The next day opens with a checkpoint that carries it.
  #expect(try HeadOfficeSync.keptName(journal: journal.path) == "north")
  #expect(try journal.openShell(newFileVersion: version).tillName == "north")
  var named: [Int] = []
  _ = try KioskJournalReader.walk(path: KioskSegments.archivePath(of: journal.path, day: 1)) { sequence, entry in
    if case .record(.tillNamed("north")) = entry { named.append(sequence) }
  }
  #expect(named == [2], "one record, after the first")
  for segment in KioskSegments.all(of: journal.path) { _ = try KioskVerifier.replay(path: segment.path) }
}

@MainActor
@Test func aNameNoTillMayHaveIsRefusedAndNothingJournaled() throws {
  let journal = try TemporaryJournal()
  let shell = try journal.openShell()
  func size() throws -> Int { try FileManager.default.attributesOfItem(atPath: journal.path)[.size] as? Int ?? -1 }
  let before = try size()
  #expect(throws: KioskShellError.invalidTillName("north\nsouth")) { try shell.nameTill("north\nsouth") }
  #expect(throws: KioskShellError.invalidTillName("")) { try shell.nameTill("") }
  #expect(try size() == before)
  #expect(shell.tillName == nil)
}

@MainActor
@Test func aCheckpointThatNamesAnotherTillThanItsRecordsFailsVerify() throws {
  let journal = try TemporaryJournal()
  let shell = try journal.openShell()
  try shell.nameTill("north")
  _ = try shell.openTab(for: "Ada")
  // Given: a checkpoint written as if the till had another name.
  shell.tillName = "south"
  try shell.writeCheckpoint()
  #expect(throws: KioskVerifier.Failure.self) { try KioskVerifier.replay(path: journal.path) }
}
