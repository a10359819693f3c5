import DurableStore
import Foundation
import Journal
import KioskCommands
import Payment
import Tabs
import Testing

@testable import KioskApp

// The files beside the journal on the framework's store, as the kiosk has
// always kept them: the day's settled-tabs file, vouched for by each checkpoint and
// archived with its day; where each day's movements begin in the processor's
// ledger, and the numbers it gave; and the archives, never reopened.

/// A till opened as `kiosk` opens it, with a day begun: Ada's and Bob's tabs.
@MainActor private func tillWithTwoTabs(_ journal: TemporaryJournal) throws -> (
  DurableStore<KioskTill>?, ada: Tab.ID, bob: Tab.ID
) {
  let store = try DurableStore<KioskTill>.openTill(at: journal.path)
  try store.send(.initialize(menu: KioskDefaults.menu, stock: KioskDefaults.stock))
  var tabs: [Tab.ID] = []
  for (customer, item) in [("Ada", latte), ("Bob", espresso)] {
    guard case .opened(let id, _)? = try store.send(.command(.openTab(customer: customer))).outcome.record else {
      throw TillRefusal(description: "no tab opened")
    }
    try store.send(.command(.add(item: item, tab: id)))
    tabs.append(id)
  }
  return (store, tabs[0], tabs[1])
}

/// The tab an entry of the settled-tabs file names.
private func tab(of entry: SettledTabsEntry) -> Tab.ID {
  switch entry {
  case .settled(let receipt, _): receipt.tab
  case .reopened(let id): id
  }
}

/// The last checkpoint of the journal at `path`.
private func lastCheckpoint(of path: String) throws -> KioskCheckpoint? {
  try KioskReplay.contents(of: DurableJournal.read(path: path)).checkpoint
}

@MainActor
@Test func theStoresCheckpointsVouchForTheSettledTabsFileAndTheShellKeepsIt() async throws {
  let journal = try TemporaryJournal()
  var (store, ada, bob) = try tillWithTwoTabs(journal)
  _ = try await store?.settle(ada)
  _ = try await store?.settle(bob)
  _ = try await store?.undoNewest()
  try store?.checkpoint()
  #expect(store?.state.settledSinceCheckpoint == [])
  // One more after the checkpoint: the records say it, the file need not yet.
  _ = try await store?.settle(bob)
  #expect(store?.state.settledSinceCheckpoint.map(tab(of:)) == [bob])
  let listed = try #require(try store?.settledListing())
  store = nil

  let day = try SettledTabsFile.replayedEntries(ofDay: journal.path)
  #expect(day.map(tab(of:)) == [ada, bob, bob, bob])
  let mark = try #require(try lastCheckpoint(of: journal.path)?.settledTabs)
  #expect(mark.entries == 3)
  let salt = try #require(KioskSegments.salt(of: journal.path))
  #expect(SettledTabsFile.entries(besideJournal: journal.path, salt: salt, through: mark) == Array(day.prefix(3)))
  #expect(listed.tabs.map(\.receipt.tab) == [ada, bob] && listed.unlisted == 0)

  // Reopened, the till lists the same, and keeps the file rather than write it again.
  let records = try lastSequence(journal.path)
  #expect(try DurableStore<KioskTill>.openTill(at: journal.path).settledListing() == listed)
  #expect(try lastSequence(journal.path) == records, "the checkpoint vouches for the file")
}

@MainActor
@Test func aSettledTabsFileThatIsGoneIsWrittenAgainFromTheDayAndVouchedFor() async throws {
  let journal = try TemporaryJournal()
  var (store, ada, bob) = try tillWithTwoTabs(journal)
  _ = try await store?.settle(ada)
  try store?.checkpoint()
  _ = try await store?.settle(bob)
  store = nil
  let file = SettledTabsFile.path(besideJournal: journal.path)
  try FileManager.default.removeItem(atPath: file)

  store = try DurableStore<KioskTill>.openTill(at: journal.path)
  // Written again whole, and a checkpoint says so at once.
  #expect(store?.state.kept.settledTabs?.entries == 2)
  #expect(try lastCheckpoint(of: journal.path)?.settledTabs?.entries == 2)
  #expect(try store?.settledListing().tabs.map(\.receipt.tab) == [ada, bob])
  store = nil
  let records = try lastSequence(journal.path)
  _ = try DurableStore<KioskTill>.openTill(at: journal.path)
  #expect(try lastSequence(journal.path) == records, "the next writer keeps it")
}

@MainActor
@Test func aDayClosedOnTheStoreArchivesItsSettledTabsAndTheNextBeginsWhereTheLedgerEnds() async throws {
  let journal = try TemporaryJournal()
  var (store, ada, _) = try tillWithTwoTabs(journal)
  let receipt = try #require(try await store?.settle(ada))
  #expect(try store?.closeDay() == 1)
  let ledgerEnd = try #require(store?.environment.processor.endAnchor)
  #expect(store?.state.kept == KioskTill.Kept(settledTabs: .empty, ledgerStart: ledgerEnd, ledgerNumbersUsed: 1))
  store = nil

  let archive = KioskSegments.archivePath(of: journal.path, day: 1)
  // The close brought the file up to date (no checkpoint came after the settle) and moved it.
  let archiveSalt = try #require(KioskSegments.salt(of: archive))
  let file = SettledTabsFile.path(besideJournal: archive)
  let whole = try #require(DerivedLog.markOfWholeFile(path: file, salt: archiveSalt))
  let archived = SettledTabsFile.entries(besideJournal: archive, salt: archiveSalt, through: whole)
  #expect(archived?.map(tab(of:)) == [ada], "the day's settled tabs went with its archive")
  #expect(try lastCheckpoint(of: archive) == nil, "the day ends with its records")
  let opening = try #require(try lastCheckpoint(of: journal.path))
  #expect(opening.ledgerStart == ledgerEnd)
  #expect(opening.ledgerNumbersUsed == 1)
  #expect(opening.settledTabs == .empty)

  // The next day's writer reads only the day's movements, and numbers on.
  let records = try lastSequence(journal.path)
  let dayTwo = try DurableStore<KioskTill>.openTill(at: journal.path)
  #expect(dayTwo.environment.processor.ledger.entries.isEmpty, "day 1's movements are not read")
  #expect(try lastSequence(journal.path) == records, "the day's settled tabs file is kept")
  let bob = try #require(dayTwo.state.slices.tabs.open.keys.first)
  let second = try await dayTwo.settle(bob)
  #expect(receipt.reference.hasSuffix("_1") && second.reference.hasSuffix("_2"), "\(second.reference)")
}

@MainActor
@Test func aLaterDayRefusesALedgerThatMovedOnWithoutItOrIsAnotherFile() async throws {
  let journal = try TemporaryJournal()
  var (store, ada, _) = try tillWithTwoTabs(journal)
  _ = try await store?.settle(ada)
  try store?.closeDay()
  store = nil
  let ledger = LocalProcessor.defaultPath(besideJournal: journal.path)
  let kept = try Data(contentsOf: URL(fileURLWithPath: ledger))

  // A movement under another journal's keys since day 2 began.
  do {
    var processor = try LocalProcessor(path: ledger)
    _ = try processor.charge(3, key: IdempotencyKey(journalSalt: 0xDEAD, sequence: 2, tab: 1))
  }
  let before = journal.bytes
  #expect(throws: TillError.ledgerMovedOn(path: ledger, journal: journal.path, movements: 1)) {
    _ = try DurableStore<KioskTill>.openTill(at: journal.path)
  }
  // Another ledger file in its place: the day began in the other one.
  try FileManager.default.removeItem(atPath: ledger)
  do {
    var processor = try LocalProcessor(path: ledger)
    _ = try processor.charge(3, key: IdempotencyKey(journalSalt: 0xDEAD, sequence: 2, tab: 1))
  }
  #expect(throws: TillError.ledgerNotTheDays(path: ledger)) {
    _ = try DurableStore<KioskTill>.openTill(at: journal.path)
  }
  #expect(journal.bytes == before)
  try kept.write(to: URL(fileURLWithPath: ledger))
  _ = try DurableStore<KioskTill>.openTill(at: journal.path)
}

@MainActor
@Test func aLedgerRestoredToBeforeTheDayBeganHasItsNumbersRetiredOnTheStore() async throws {
  let journal = try TemporaryJournal()
  let ledger = LocalProcessor.defaultPath(besideJournal: journal.path)
  var (store, ada, _) = try tillWithTwoTabs(journal)
  let backup = try Data(contentsOf: URL(fileURLWithPath: ledger))
  _ = try await store?.settle(ada)
  try store?.closeDay()
  store = nil
  // The ledger as it was before Ada's charge: shorter than where day 2 begins in it.
  try backup.write(to: URL(fileURLWithPath: ledger))

  let dayTwo = try DurableStore<KioskTill>.openTill(at: journal.path)
  #expect(dayTwo.environment.processor.retiredOnOpen == 1...1, "the number day 1 gave Ada is retired")
  #expect(dayTwo.environment.processor.numbersUsed == 1)
  // And no money moves until repair writes Ada's charge back from the journal.
  let bob = try #require(dayTwo.state.slices.tabs.open.keys.first)
  await #expect(throws: TillError.ledgerLacksKnownEntries(path: ledger, numbers: [1])) {
    _ = try await dayTwo.settle(bob)
  }
}

@MainActor
@Test func theStoreRefusesAClosedDaysArchiveAndAJournalWhoseDayIsArchived() async throws {
  let journal = try TemporaryJournal()
  var (store, ada, _) = try tillWithTwoTabs(journal)
  _ = try await store?.settle(ada)
  let dayOne = journal.bytes
  try store?.closeDay()
  store = nil

  let archive = KioskSegments.archivePath(of: journal.path, day: 1)
  #expect(throws: TillError.closedDay(day: 1, path: archive)) {
    _ = try DurableStore<KioskTill>.openTill(at: archive)
  }
  // Day 1's journal put back over the live one: its tabs' charges are under the archive's keys.
  try dayOne.write(to: URL(fileURLWithPath: journal.path))
  #expect(throws: TillError.dayAlreadyArchived(day: 1, path: journal.path, archive: archive)) {
    _ = try DurableStore<KioskTill>.openTill(at: journal.path)
  }
  #expect(journal.bytes == dayOne)
}
