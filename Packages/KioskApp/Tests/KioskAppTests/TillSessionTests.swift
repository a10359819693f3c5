import Clock
import Foundation
import Journal
import KioskApp
import KioskCommands
import Menu
import Payment
import Stock
import Tabs
import Testing
import _ServiceLinkerTestSupport

@MainActor
@Test func aNewJournalStartsWithTheDefaultMenuAndStock() async throws {
  let journal = try TemporaryJournal()
  let shell = try await journal.openTill()
  #expect(try journal.records() == [.initialized(menu: KioskDefaults.menu, stock: KioskDefaults.stock)])
  #expect(shell.snapshot == KioskSnapshot(menu: KioskDefaults.menu, stock: KioskDefaults.stock, tabs: TabsState()))
  #expect(shell.undoDepth == 0)
}

@MainActor
@Test func aSessionSettlesAndUndoRefundsTheCharge() async throws {
  let journal = try TemporaryJournal()
  let shell = try await journal.openTill()
  let start = shell.snapshot
  let tab = try await shell.openTab(for: "Ada")
  try await shell.add(latte, to: tab)
  let beforeSettle = shell.snapshot
  let receipt = try await shell.settle(tab)
  #expect(receipt.total == 4.5)
  #expect(shell.processorLedger.map(\.reference) == [receipt.reference])
  #expect(shell.snapshot.stock.units[.milk] == 28)
  #expect(try shell.board == [])
  #expect(shell.snapshot.tabs.settled == SettledTabs(count: 1, total: 4.5))
  #expect(
    try shell.settledListing()
      == SettledListing(
        [.settled(receipt, tab: Tab(customer: "Ada", lines: [latte]))], counted: SettledTabs(count: 1, total: 4.5)))

  let undone = try #require(try await shell.undo())
  let refund = try #require(shell.processorLedger.last?.reference)
  #expect(undone == Undone(record: .settled(receipt), refund: refund))
  #expect(try shell.paymentAudit().agrees)
  #expect(shell.snapshot == beforeSettle)
  #expect(try shell.settledListing().tabs == [])
  #expect(try await shell.undo()?.record == .added(item: latte, tab: tab))
  #expect(try await shell.undo()?.record == .opened(tab: tab, customer: "Ada"))
  #expect(shell.snapshot == start)
  #expect(try await shell.undo() == nil)
}

@MainActor
@Test func aRefusedCommandChangesNeitherTheWorldNorTheJournal() async throws {
  let journal = try TemporaryJournal()
  let shell = try await journal.openTill()
  let tab = try await shell.openTab(for: "Grace")
  let before = shell.snapshot
  let bytes = journal.bytes
  await #expect(throws: KioskError.notOnMenu(Item.ID(raw: 99))) { try await shell.add(Item.ID(raw: 99), to: tab) }
  await #expect(throws: KioskError.unknownTab(Tab.ID(raw: 7))) { try await shell.settle(Tab.ID(raw: 7)) }
  await #expect(throws: RestockError.nonPositiveCount(-1)) { try await shell.restock(.milk, count: -1) }
  #expect(shell.snapshot == before)
  #expect(journal.bytes == bytes)
  #expect(shell.undoDepth == 1)
}

@MainActor
@Test func aShortageInTheMiddleOfTheRecipesChangesNothing() async throws {
  let journal = try TemporaryJournal()
  let shell = try await journal.openTill()
  let tab = try await shell.openTab(for: "Ada")
  for _ in 0..<3 { try await shell.add(Item.ID(raw: 3), to: tab) }  // oat latte: 2 oat milk each
  try await shell.restock(.oatMilk, count: 1)
  let other = try await shell.openTab(for: "Grace")
  for _ in 0..<4 { try await shell.add(Item.ID(raw: 3), to: other) }
  _ = try await shell.settle(other)  // leaves 13 - 8 = 5 oat milk, the first tab needs 6
  let before = shell.snapshot
  let bytes = journal.bytes
  await #expect(throws: KioskError.shortage(.oatMilk)) { try await shell.settle(tab) }
  #expect(shell.snapshot == before)
  #expect(journal.bytes == bytes)
}

@MainActor
@Test func reopeningTheJournalReplaysToTheSameStateAndUndoHistory() async throws {
  let journal = try TemporaryJournal()
  var expected: KioskSnapshot
  var records: [KioskRecord]
  do {
    let shell = try await journal.openTill()
    let ada = try await shell.openTab(for: "Ada")
    try await shell.add(latte, to: ada)
    try await shell.add(espresso, to: ada)
    _ = try await shell.settle(ada)
    try await shell.restock(.milk, count: 5)
    _ = try await shell.undo()
    let grace = try await shell.openTab(for: "Grace")
    try await shell.add(latte, to: grace)
    expected = shell.snapshot
    records = try journal.records()
  }
  let reopened = try await journal.openTill()
  #expect(reopened.snapshot == expected)
  #expect(try journal.records() == records)
  #expect(reopened.undoDepth == 6)  // the undo took the restock off the stack
  #expect(try await reopened.undo()?.record == .added(item: latte, tab: Tab.ID(raw: 2)))
}

@MainActor
@Test func undoGoesBackAtMostAHundredCommands() async throws {
  let journal = try TemporaryJournal()
  let shell = try await journal.openTill()
  for _ in 0..<(UndoHistory.depth + 5) { try await shell.restock(.cup, count: 1) }
  #expect(shell.undoDepth == UndoHistory.depth)
  for _ in 0..<UndoHistory.depth { _ = try await shell.undo() }
  #expect(try await shell.undo() == nil)
  #expect(shell.snapshot.stock.units[.cup] == KioskDefaults.stock.units[.cup]! + 5)
}

/// Undo and rollback apply inverses instead of restoring copies: over random
/// streams of commands, refusals and undos, each undo lands exactly on the
/// state before its command (kept here, by copy, as the reference), and a
/// replay of the journal lands where the live till did.
@MainActor
@Test(arguments: [UInt64(1), 2, 3, 4, 5])
func inversesAgreeWithCopiesAndWithReplayOverRandomCommandStreams(seed: UInt64) async throws {
  var random = SeededGenerator(seed: seed)
  let journal = try TemporaryJournal()
  let final: KioskSnapshot
  do {
    let shell = try await journal.openTill()
    var before: [KioskSnapshot] = []
    for step in 0..<200 {
      let tabs = shell.snapshot.tabs.open.keys.sorted()
      let tab = tabs.randomElement(using: &random) ?? Tab.ID(raw: 1)
      let item = Item.ID(raw: Int.random(in: 1...5, using: &random))
      let state = shell.snapshot
      let done: Bool
      switch Int.random(in: 0..<10, using: &random) {
      case 0, 1: done = (try? await shell.openTab(for: "Guest")) != nil
      case 2, 3, 4: done = (try? await shell.add(item, to: tab)) != nil
      case 5: done = (try? await shell.remove(item, from: tab)) != nil
      case 6: done = (try? await shell.settle(tab)) != nil
      case 7: done = (try? await shell.restock(.milk, count: Int.random(in: 1...20, using: &random))) != nil
      default:
        let undone = try await shell.undo()
        #expect((undone == nil) == before.isEmpty, "seed \(seed), step \(step)")
        if undone != nil { #expect(shell.snapshot == before.removeLast(), "seed \(seed), step \(step)") }
        continue
      }
      if done {
        before.append(state)
        if before.count > UndoHistory.depth { before.removeFirst() }
      } else {
        #expect(shell.snapshot == state, "a refused command changed the state (seed \(seed), step \(step))")
      }
    }
    final = shell.snapshot
  }
  let reopened = try await journal.openTill()
  #expect(reopened.snapshot.canonicalJSON() == final.canonicalJSON())
}

@MainActor
@Test func settlingAnEmptyTabIsRefusedAndJournalsNothing() async throws {
  let journal = try TemporaryJournal()
  let shell = try await journal.openTill()
  let tab = try await shell.openTab(for: "Ada")
  let before = journal.bytes
  await #expect(throws: KioskError.emptyTab(tab)) { try await shell.settle(tab) }
  #expect(journal.bytes == before)
  #expect(shell.processorLedger.isEmpty)
}

/// A journal cut back (a backup put back) gives a settle the key of a record
/// it lost: the processor already used it, for a charge since refunded. The
/// key is given up, not reused, and the settle charges under the next.
@MainActor
@Test func aJournalCutBackNeverReusesAKeyTheProcessorKnows() async throws {
  let journal = try TemporaryJournal()
  let before: Data
  do {
    let shell = try await journal.openTill()
    let tab = try await shell.openTab(for: "Ada")
    before = journal.bytes  // the journal as a backup would hold it
    try await shell.add(latte, to: tab)
    _ = try await shell.settle(tab)  // charged 4.50 under the key of record 4, for tab 1
    _ = try await shell.undo()  // and refunded: the processor holds nothing for the tab
  }
  // Cut the journal back: records 3 and on, and so record 4's key, are free again.
  _ = FileManager.default.createFile(atPath: journal.path, contents: before)
  let shell = try await journal.openTill()
  try await shell.add(espresso, to: Tab.ID(raw: 1))
  let receipt = try await shell.settle(Tab.ID(raw: 1))  // its first candidate key is record 4's
  #expect(receipt.total == 3)
  #expect(shell.processorLedger.map(\.amount) == [4.5, 4.5, 3], "a new charge, not the old one")
  #expect(shell.processorLedger.last?.reference == receipt.reference)
  #expect(shell.adoptions.isEmpty)
  #expect(
    try journal.records().contains {
      if case .paymentAbandoned(_, let reason) = $0 { return KioskTill.isKeyUsedBefore(reason) }
      return false
    })
}
