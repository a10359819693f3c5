import Foundation
import Journal
import KioskCommands
import Menu
import Payment
import Stock
import Tabs
import Testing
import _ServiceLinkerTestSupport

@testable import KioskApp

/// The day's settled tabs as a replay of the whole day finds them: what the
/// settled-tabs file must always agree with.
private func replayedListing(_ path: String) throws -> SettledListing {
  let recovery = try DurableJournal.read(path: path)
  var world = ReplayWorld()
  _ = try KioskReplay.replay(try KioskReplay.contents(of: recovery), into: &world)
  return SettledListing(try SettledTabsFile.replayedEntries(ofDay: path), counted: world.tabs.settled)
}

/// Settles, undoes and settles again a few tabs, with a checkpoint between.
@MainActor
private func aDayOfSettles(_ shell: TillShell) async throws -> [Tab.ID] {
  var tabs: [Tab.ID] = []
  for name in ["Ada", "Bo", "Cy", "Di"] {
    let tab = try await shell.openTab(for: name)
    try await shell.add(latte, to: tab)
    tabs.append(tab)
  }
  _ = try await shell.settle(tabs[0])
  _ = try await shell.settle(tabs[1])
  try shell.store.checkpoint()
  _ = try await shell.undo()  // Bo's settle: Bo is open again
  try await shell.add(espresso, to: tabs[1])
  _ = try await shell.settle(tabs[1])
  _ = try await shell.settle(tabs[2])
  return tabs
}

@MainActor
@Test func aSettledTabLeavesTheStateAndTheDaysFileListsIt() async throws {
  let journal = try TemporaryJournal()
  let shell = try await journal.openTill()
  let tabs = try await aDayOfSettles(shell)
  #expect(shell.snapshot.tabs.open.keys.sorted() == [tabs[3]])
  #expect(shell.snapshot.tabs.settled == SettledTabs(count: 3, total: 4.5 + 7.5 + 4.5))
  let listing = try shell.settledListing()
  #expect(listing.tabs.map(\.receipt.tab) == Array(tabs[0...2]))
  #expect(listing.tabs[1].tab == Tab(customer: "Bo", lines: [latte, espresso]), "the last settle's tab")
  #expect(listing.unlisted == 0)
  #expect(try replayedListing(journal.path) == listing)
  // A reader lists the same from the file and the records after the last checkpoint.
  let view = try KioskView.read(journal: journal.path, processor: nil, listingSettled: true)
  #expect(view.settledListing == listing)
}

@MainActor
@Test func theCheckpointHoldsTheOpenTabsAndWhereTheFileStood() async throws {
  let journal = try TemporaryJournal()
  let shell = try await journal.openTill()
  _ = try await aDayOfSettles(shell)
  try shell.store.checkpoint()
  let recovery = try DurableJournal.read(path: journal.path)
  let checkpoint = try #require(try KioskReplay.contents(of: recovery).checkpoint)
  #expect(
    checkpoint.format == KioskCheckpoint.canonicalFormat, "a new journal is of format 3: its checkpoints canonical")
  #expect(checkpoint.state.tabs.open.count == 1)
  // Ada, Bo, Bo reopened, Bo again, Cy.
  #expect(checkpoint.settledTabs?.entries == 5)
}

@MainActor
@Test func aWriterKeepsTheFileUpToItsCheckpointAndAppendsWhatTheRecordsAfterItSay() async throws {
  let journal = try TemporaryJournal()
  do {
    let shell = try await journal.openTill()
    _ = try await aDayOfSettles(shell)
  }
  let path = SettledTabsFile.path(besideJournal: journal.path)
  // A writer that was killed before its appends reached the file: cut the file back to the checkpoint's mark.
  let recovery = try DurableJournal.read(path: journal.path)
  let mark = try #require(try KioskReplay.contents(of: recovery).checkpoint?.settledTabs)
  #expect(truncate(path, off_t(mark.end)) == 0)
  let records = try lastSequence(journal.path)
  let reopened = try await journal.openTill()
  #expect(try lastSequence(journal.path) == records, "kept, so no checkpoint vouches for it again")
  #expect(try reopened.settledListing() == replayedListing(journal.path))
  #expect(try reopened.settledListing().tabs.count == 3)
}

@MainActor
@Test func aMissingOrDamagedFileIsRebuiltFromTheJournalAndACheckpointVouchesForIt() async throws {
  let journal = try TemporaryJournal()
  do {
    let shell = try await journal.openTill()
    _ = try await aDayOfSettles(shell)
    try shell.store.checkpoint()
  }
  let path = SettledTabsFile.path(besideJournal: journal.path)
  let expected = try replayedListing(journal.path)
  for damage in ["missing", "flipped"] {
    if damage == "missing" {
      try FileManager.default.removeItem(atPath: path)
    } else {
      var bytes = try #require(FileManager.default.contents(atPath: path))
      bytes[DerivedLog.headerSize + 12] ^= 0x40
      try bytes.write(to: URL(fileURLWithPath: path))
    }
    // A reader lists from a replay of the day meanwhile.
    #expect(try KioskView.read(journal: journal.path, processor: nil, listingSettled: true).settledListing == expected)
    let records = try lastSequence(journal.path)
    do {
      let shell = try await journal.openTill()
      #expect(try lastSequence(journal.path) == records + 1, "rebuilt, and a checkpoint at once (\(damage))")
      #expect(try DurableJournal.read(path: journal.path).lastCheckpoint == 0, "the last record")
      #expect(try shell.settledListing() == expected)
    }
    _ = try await journal.openTill()
    #expect(try lastSequence(journal.path) == records + 1, "the next writer keeps it")
  }
}

@MainActor
@Test func closingTheDayTakesItsSettledTabsToTheArchive() async throws {
  let journal = try TemporaryJournal()
  let shell = try await journal.openTill()
  _ = try await aDayOfSettles(shell)
  let listing = try shell.settledListing()
  _ = try await shell.closeDay()
  let archive = KioskSegments.archivePath(of: journal.path, day: 1)
  let salt = try #require(KioskSegments.salt(of: archive))
  let mark = try #require(try archivedMark(archive, salt: salt))
  let archived = try #require(SettledTabsFile.entries(besideJournal: archive, salt: salt, through: mark))
  #expect(SettledListing(archived, counted: SettledTabs(count: 3, total: 16.5)) == listing)
  #expect(try shell.settledListing() == SettledListing([], counted: SettledTabs()))
  #expect(shell.snapshot.tabs.settled == SettledTabs())
  // The next day's first settle goes to the next day's file.
  let tab = try #require(shell.snapshot.tabs.open.keys.first)
  _ = try await shell.settle(tab)
  #expect(try shell.settledListing().tabs.map(\.receipt.tab) == [tab])
  #expect(
    try KioskView.read(journal: journal.path, processor: nil, listingSettled: true).settledListing?.tabs.count == 1)
}

/// Where the archive's settled-tabs file ends: all of its entries, each whole.
private func archivedMark(_ archive: String, salt: UInt64) throws -> DerivedLog.Mark? {
  DerivedLog.markOfWholeFile(path: SettledTabsFile.path(besideJournal: archive), salt: salt)
}

@MainActor
@Test func aLongDaysCheckpointStaysTheSizeOfItsOpenTabs() async throws {
  let journal = try TemporaryJournal()
  let shell = try await journal.openTill()
  for _ in 0..<300 {
    let tab = try await shell.openTab(for: "Guest")
    try await shell.add(espresso, to: tab)
    try await shell.restock(.cup, count: 1)
    try await shell.restock(.beans, count: 1)
    _ = try await shell.settle(tab)
  }
  _ = try await shell.openTab(for: "Still here")
  try shell.store.checkpoint()
  let recovery = try DurableJournal.read(path: journal.path)
  let checkpoint = try #require(try KioskReplay.contents(of: recovery).checkpoint)
  #expect(checkpoint.state.tabs.open.count == 1)
  #expect(checkpoint.state.tabs.settled == SettledTabs(count: 300, total: 900))
  // The undo history holds at most 100 settles' tabs; nothing else of the 300.
  #expect(recovery.payload(recovery.lastCheckpoint!).count < 40_000)
  #expect(try shell.settledListing().tabs.count == 300)
}

@Test func everyEntryWritesTheEncodersBytesAndReadsByHandAsTheDecoderReadsIt() async throws {
  var random = SeededGenerator(seed: 71)
  let encoder = JournalJSONWriter.makeEncoder()
  let names = ["Ada", "Zoë \\ ☕️", "a \"quoted\" /name/", "\u{1}"]
  for _ in 0..<2_000 {
    let id = Tab.ID(raw: Int.random(in: 1...1_000_000, using: &random))
    let entry: SettledTabsEntry
    if Bool.random(using: &random) {
      let lines = (0..<Int.random(in: 0...5, using: &random)).map { _ in
        Item.ID(raw: Int.random(in: 1...9, using: &random))
      }
      let receipt = Receipt(
        tab: id, total: Decimal(Int.random(in: 0...100_000, using: &random)) / 100,
        chargedAt: Date(timeIntervalSinceReferenceDate: Double(Int.random(in: 0...900_000_000, using: &random)) / 8),
        reference: "ch_\(Int.random(in: 1...99, using: &random))",
        key: Bool.random(using: &random) ? IdempotencyKey("k_\(id.raw)") : nil)
      entry = .settled(receipt, tab: Tab(customer: names.randomElement(using: &random)!, lines: lines))
    } else {
      entry = .reopened(id)
    }
    var writer = JournalJSONWriter()
    let byHand = entry.writeJournal(to: &writer)
    let bytes = try JournalJSONWriter.bytes(of: entry)
    #expect(bytes == Array(try encoder.encode(entry)), "\(entry)")
    if byHand { #expect(SettledTabsEntry.readJournal(bytes[...]) == entry, "\(entry)") }
    #expect(try SettledTabsEntry.decoded(from: bytes[...]) == entry)
    #expect(try JSONDecoder().decode(SettledTabsEntry.self, from: Data(bytes)) == entry)
  }
}

@MainActor
@Test func verifyComparesTheSettledTabsFileWithTheReplayAtTheLastCheckpoint() async throws {
  let journal = try TemporaryJournal()
  do {
    let shell = try await journal.openTill()
    _ = try await aDayOfSettles(shell)
    try shell.store.checkpoint()
  }
  #expect(try KioskVerifier.replay(path: journal.path).settledTabsFile == .agrees(entries: 5))
  let path = SettledTabsFile.path(besideJournal: journal.path)
  let salt = try #require(KioskSegments.salt(of: journal.path))
  let mark = try #require(try KioskReplay.contents(of: DurableJournal.read(path: journal.path)).checkpoint?.settledTabs)
  let payloads = try #require(DerivedLog.read(path: path, salt: salt, through: mark))
  let bytes = try #require(FileManager.default.contents(atPath: path))
  try bytes.prefix(bytes.count - 3).write(to: URL(fileURLWithPath: path))
  #expect(try KioskVerifier.replay(path: journal.path).settledTabsFile == .unreadable)
  // Valid entries of this journal, as long as the real ones, that are not what its records make.
  var forged = DerivedLog(path: path, salt: salt, keeping: .empty)
  for payload in payloads {
    forged.append(Array(String(decoding: payload, as: UTF8.self).replacingOccurrences(of: "Ada", with: "Eve").utf8))
  }
  let synchronized = forged.synchronized()
  let forgedMark = try #require(synchronized)
  #expect(forgedMark.end == mark.end && forgedMark.entries == mark.entries && forgedMark.digest != mark.digest)
  #expect(
    try KioskVerifier.replay(path: journal.path).settledTabsFile == .unreadable,
    "a file the checkpoint does not vouch for (its digest differs) is stale, not wrong")
  // Only a checkpoint that vouches for the forged file makes it wrong.
  var vouching = try #require(try KioskReplay.contents(of: DurableJournal.read(path: journal.path)).checkpoint)
  vouching.settledTabs = forgedMark
  do {
    var log = try DurableJournal(path: journal.path)
    try log.appendCheckpoint(vouching)
  }
  #expect(try KioskVerifier.replay(path: journal.path).settledTabsFile == .differs)
}
