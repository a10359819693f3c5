import Clock
import DurableStore
import Foundation
import Journal
import KioskApp
import Menu
import Payment
import Stock
import Tabs
import Testing

/// A day: Ada's tab settled, Bob's settled then undone (refunded), Cy's left open.
@MainActor
private func playADay(_ shell: TillShell) async throws {
  let ada = try await shell.openTab(for: "Ada")
  try await shell.add(latte, to: ada)
  try await shell.add(espresso, to: ada)
  _ = try await shell.settle(ada)
  let bob = try await shell.openTab(for: "Bob")
  try await shell.add(espresso, to: bob)
  _ = try await shell.settle(bob)
  _ = try await shell.undo()
  _ = try await shell.settle(bob)
  _ = try await shell.undo()
  let cy = try await shell.openTab(for: "Cy")
  try await shell.add(latte, to: cy)
}

@MainActor
@Test func closingTheDayReportsItArchivesSettledTabsAndCarriesOpenOnes() async throws {
  let journal = try TemporaryJournal()
  let shell = try await journal.openTill()
  try await playADay(shell)
  let report = try await shell.closeDay()
  #expect(report.day == 1)
  #expect(report.sales.map(\.name) == ["Latte", "Espresso"])
  #expect(report.sales.map(\.count) == [1, 1])
  #expect(report.charges.count == 3 && report.refunds.count == 2)
  #expect(report.net == report.sales.reduce(0) { $0 + $1.total })
  #expect(report.net == 7.50)
  #expect(report.openingStock == KioskDefaults.stock)
  #expect(report.settledTabs == 1 && report.openTabs == 2)

  // The live state keeps the open tabs (Bob's, reopened by the undo, and Cy's), not Ada's.
  #expect(shell.day == 2)
  #expect(shell.snapshot.tabs.open.keys.sorted().map(\.raw) == [2, 3])
  #expect(shell.snapshot.tabs.nextID == 4)
  #expect(shell.undoDepth == 0, "undo does not reach back across a close")
  #expect(try await shell.undo() == nil)

  let archive = KioskSegments.archivePath(of: journal.path, day: 1)
  #expect(FileManager.default.fileExists(atPath: archive))
  #expect((try FileManager.default.attributesOfItem(atPath: archive)[.posixPermissions] as? Int) == 0o444)
  #expect(KioskSegments.all(of: journal.path).map(\.path) == [archive, journal.path])
  // The till that wrote the day held zeros ahead of its records; the archive, still
  // named by that open handle, ends with its last record all the same.
  let archived = try #require(FileManager.default.contents(atPath: archive))
  #expect(try DurableJournal.stream(path: archive) { _ in }.recordsEnd == archived.count)
  #expect(archived.last != 0)

  // The next day goes on from there, and the days chain.
  _ = try await shell.settle(Tab.ID(raw: 3))
  let reports = try KioskSegments.all(of: journal.path).map { try KioskVerifier.replay(path: $0.path) }
  try KioskVerifier.checkChain(from: reports[0], to: reports[1])
  #expect(reports[1].state.canonicalJSON() == shell.snapshot.canonicalJSON())
  let audit = try shell.paymentAudit()
  #expect(audit.agrees, "\(audit.mismatches)")
  #expect(audit.charges == 4)
}

@MainActor
@Test func reopeningAfterACloseStartsTheNextDay() async throws {
  let journal = try TemporaryJournal()
  let carried: KioskSnapshot
  do {
    let shell = try await journal.openTill()
    try await playADay(shell)
    _ = try await shell.closeDay()
    carried = shell.snapshot
  }
  let reopened = try await journal.openTill()
  #expect(reopened.day == 2)
  #expect(reopened.snapshot == carried)
  let day = try DurableJournal.read(path: journal.path)
  #expect(day.count == 1 && day.isCheckpoint(0), "the new day opens with its checkpoint and nothing after it")
}

@MainActor
@Test func theArchiveCannotBeOpenedAsTheLiveJournal() async throws {
  let journal = try TemporaryJournal()
  do {
    let shell = try await journal.openTill()
    _ = try await shell.closeDay()
  }
  let archive = KioskSegments.archivePath(of: journal.path, day: 1)
  await #expect(throws: TillError.closedDay(day: 1, path: archive)) {
    _ = try await TillShell.open(journal: archive)
  }
}

/// A crash at each step of closing the day after `dayClosed` is durable: the
/// next writer finishes the close, and a `closeDay` right after reports that
/// day instead of closing another. Nothing acknowledged is lost. (Before
/// `dayClosed` nothing is decided: `aFileInTheArchivesPlaceStopsTheCloseAndIsKept`.)
@MainActor
@Test(arguments: [CrashPoint.periodEnded, .periodNextWritten, .periodArchived])
func aCloseCutShortIsFinishedByTheNextWriter(point: CrashPoint) async throws {
  let journal = try TemporaryJournal()
  let before: KioskSnapshot
  do {
    let stop = StopAt()
    let shell = try await journal.openTill(crashSeam: stop.seam)
    try await playADay(shell)
    before = shell.snapshot
    stop.arm(point)
    await #expect(throws: DurableStoreError.stopped(at: point)) { _ = try await shell.closeDay() }
  }
  let reopened = try await journal.openTill()
  #expect(reopened.day == 2 && reopened.finishedInterruptedClose == 1, "\(point)")
  #expect(reopened.snapshot == before.carriedOver, "\(point)")
  let report = try await reopened.closeDay()
  #expect(report.day == 1 && report.net == 7.50, "the report of the day whose close was finished")
  #expect(reopened.day == 2, "one day was closed, not two")
  #expect(!FileManager.default.fileExists(atPath: journal.path + ".next"))
  let segments = KioskSegments.all(of: journal.path)
  #expect(segments.count == 2)
  let reports = try segments.map { try KioskVerifier.replay(path: $0.path) }
  try KioskVerifier.checkChain(from: reports[0], to: reports[1])
  let audit = try reopened.paymentAudit()
  #expect(audit.agrees, "\(audit.mismatches)")
}

/// Between the archive's link and the rename, the day's file has both names:
/// every reader reads it once.
@MainActor
@Test func aDayUnderBothNamesIsReadOnce() async throws {
  let journal = try TemporaryJournal()
  do {
    let stop = StopAt()
    let shell = try await journal.openTill(crashSeam: stop.seam)
    try await playADay(shell)
    stop.arm(.periodArchived)
    await #expect(throws: DurableStoreError.stopped(at: .periodArchived)) { _ = try await shell.closeDay() }
  }
  #expect(KioskSegments.all(of: journal.path).count == 1)
  var opens = 0
  try KioskJournalReader.walkDays(journal: journal.path, all: true) { _, entry in
    if case .record(.opened) = entry { opens += 1 }
  }
  #expect(opens == 3)
}

@MainActor
@Test func walkingEveryDayRefusesAMissingOrDamagedArchive() async throws {
  let journal = try TemporaryJournal()
  do {
    let shell = try await journal.openTill()
    for _ in 0..<3 {
      try await playADay(shell)
      _ = try await shell.closeDay()
    }
  }
  let first = KioskSegments.archivePath(of: journal.path, day: 1)
  let second = KioskSegments.archivePath(of: journal.path, day: 2)
  func walk() throws { try KioskJournalReader.walkDays(journal: journal.path, all: true) { _, _ in } }
  try walk()
  // The last records of day 2 cut off: its close is gone.
  let whole = try Data(contentsOf: URL(fileURLWithPath: second))
  chmod(second, 0o644)
  try whole.dropLast(30).write(to: URL(fileURLWithPath: second))
  let damaged = #expect(throws: KioskDaysError.self) { try walk() }
  #expect(damaged?.description.hasPrefix("the archive '\(second)' is damaged") == true)
  try whole.write(to: URL(fileURLWithPath: second))
  try walk()
  // Day 1 moved away: the history does not start at day 1.
  try FileManager.default.moveItem(atPath: first, toPath: first + ".moved")
  #expect(throws: KioskDaysError.missingArchive(day: 1, path: first)) { try walk() }
}

@MainActor
@Test func aFileInTheArchivesPlaceStopsTheCloseAndIsKept() async throws {
  let journal = try TemporaryJournal()
  let shell = try await journal.openTill()
  let archive = KioskSegments.archivePath(of: journal.path, day: 1)
  try Data("someone else's".utf8).write(to: URL(fileURLWithPath: archive))
  await #expect(throws: TillError.archiveExists(path: archive)) { _ = try await shell.closeDay() }
  #expect(FileManager.default.contents(atPath: archive) == Data("someone else's".utf8))
  // Nothing was decided: the day goes on, and closes once the name is free.
  #expect(shell.day == 1)
  _ = try await shell.openTab(for: "Dee")
  try FileManager.default.removeItem(atPath: archive)
  _ = try await shell.closeDay()
  #expect(shell.day == 2)
}

/// A writer that was waiting for the lock while the day closed ends up with
/// the next day's file, not the archive it had opened.
@MainActor
@Test func aWriterWaitingThroughACloseGetsTheNextDay() async throws {
  let journal = try TemporaryJournal()
  let path = journal.path
  var shell: TillShell? = try await journal.openTill()
  let waiting = Task.detached { () throws -> Bool in
    // The day's file opens with `initialized`; the next day's with a checkpoint.
    // A long wait: under load, the main actor may run other tests before this one's close.
    try DurableJournal(path: path, lockWait: .seconds(600)).recovery.isCheckpoint(0)
  }
  try await Task.sleep(for: .milliseconds(200))  // time to open the day's file and wait for its lock
  _ = try await shell?.closeDay()
  shell = nil
  #expect(try await waiting.value, "the waiting writer holds the next day's file")
}

@MainActor
@Test func theNextDaysWriterReadsOnlyTheDaysMovementsAndNumbersOn() async throws {
  let journal = try TemporaryJournal()
  do {
    let shell = try await journal.openTill()
    try await playADay(shell)
    #expect(shell.processorLedger.count == 5, "Ada's charge, Bob's two charges and two refunds")
    _ = try await shell.closeDay()
  }
  let reference: String
  do {
    let shell = try await journal.openTill()
    #expect(shell.processorLedger.isEmpty, "day 1's movements are not read")
    let cy = try #require(shell.snapshot.tabs.open.keys.first)
    reference = try await shell.settle(cy).reference
    #expect(reference.hasSuffix("_6"), "numbered after day 1's five: \(reference)")
    #expect(shell.processorLedger.map(\.reference) == [reference])
    let audit = try shell.paymentAudit()
    #expect(audit.agrees, "the audit reads the whole ledger: \(audit.mismatches)")
    #expect(audit.charges == 4)
  }
  #expect(try await journal.openTill().processorLedger.map(\.reference) == [reference])
}

@MainActor
@Test func aLedgerRestoredToBeforeTheDayBeganIsReadWholeAndItsNumbersRetired() async throws {
  let journal = try TemporaryJournal()
  let ledger = LocalProcessor.defaultPath(besideJournal: journal.path)
  let backup: Data
  do {
    let shell = try await journal.openTill()
    let ada = try await shell.openTab(for: "Ada")
    try await shell.add(latte, to: ada)
    backup = try #require(FileManager.default.contents(atPath: ledger))
    _ = try await shell.settle(ada)
    let bob = try await shell.openTab(for: "Bob")
    try await shell.add(espresso, to: bob)
    _ = try await shell.closeDay()
  }
  // The ledger as it was before Ada's charge: shorter than where day 2 begins in it.
  try backup.write(to: URL(fileURLWithPath: ledger))
  let shell = try await journal.openTill()
  #expect(shell.ledgerCaughtUp == 1...1, "the number day 1 gave Ada is retired, never given again")
  // And no money moves until repair writes Ada's charge back from the journal.
  let bob = try #require(shell.snapshot.tabs.open.keys.first)
  await #expect(throws: TillError.ledgerLacksKnownEntries(path: ledger, numbers: [1])) {
    try await shell.settle(bob)
  }
}

/// A crash between the close's rename and its `chmod` leaves the archive
/// writable (0644 here, as the journal was): the next writer makes it read-only.
@MainActor
@Test func aWriterMakesTheNewestArchiveReadOnlyWhenACloseDidNot() async throws {
  let journal = try TemporaryJournal()
  do {
    let shell = try await journal.openTill()
    _ = try await shell.openTab(for: "Ada")
    _ = try await shell.closeDay()
  }
  let archive = KioskSegments.archivePath(of: journal.path, day: 1)
  try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: archive)
  _ = try await journal.openTill()
  #expect((try FileManager.default.attributesOfItem(atPath: archive)[.posixPermissions] as? Int) == 0o444)
}
