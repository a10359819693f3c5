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

/// A journal path in a fresh folder, removed at the end of the test.
final class TemporaryJournal {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kioskapp-\(UUID().uuidString)")
  var path: String { folder.appendingPathComponent("kiosk.journal").path }

  init() throws { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
  deinit { try? FileManager.default.removeItem(at: folder) }

  var bytes: Data { FileManager.default.contents(atPath: path) ?? Data() }

  /// The till on this journal, as `kiosk` opens it, but with one attempt per
  /// processor call: a lost answer or a timeout surfaces at once, without retries.
  /// A new journal gets `newFileVersion`.
  @MainActor func openShell(newFileVersion: UInt16 = JournalFormat.version) throws -> KioskShell {
    let journal = try DurableJournal(path: path, newFileVersion: newFileVersion)
    let processor = try LocalProcessor(path: LocalProcessor.defaultPath(besideJournal: path))
    return try KioskShell(
      journal: journal, processor: processor,
      effects: EffectEnvironment(clock: SystemClock(), jitter: .none, policy: .singleAttempt, network: .direct))
  }
}

let latte = Item.ID(raw: 1)
let espresso = Item.ID(raw: 4)

@MainActor
@Test func aNewJournalStartsWithTheDefaultMenuAndStock() throws {
  let journal = try TemporaryJournal()
  let shell = try journal.openShell()
  #expect(shell.records == [.initialized(menu: KioskDefaults.menu, stock: KioskDefaults.stock)])
  #expect(shell.snapshot == KioskSnapshot(menu: KioskDefaults.menu, stock: KioskDefaults.stock, tabs: TabsState()))
  #expect(shell.undoDepth == 0)
}

@MainActor
@Test func aSessionSettlesAndUndoRefundsTheCharge() async throws {
  let journal = try TemporaryJournal()
  let shell = try journal.openShell()
  let start = shell.snapshot
  let tab = try shell.openTab(for: "Ada")
  try shell.add(latte, to: tab)
  let beforeSettle = shell.snapshot
  let receipt = try await shell.settle(tab)
  #expect(receipt.total == 4.5)
  #expect(shell.processorLedger.map(\.reference) == [receipt.reference])
  #expect(shell.snapshot.stock.units[.milk] == 28)
  #expect(shell.board == [])
  #expect(shell.snapshot.tabs.settled == SettledTabs(count: 1, total: 4.5))
  #expect(
    try shell.settledListing()
      == SettledListing(
        [.settled(receipt, tab: Tab(customer: "Ada", lines: [latte]))], counted: SettledTabs(count: 1, total: 4.5)))

  let undone = try #require(try await shell.undo())
  let refund = try #require(shell.processorLedger.last?.reference)
  #expect(undone == KioskShell.Undone(record: .settled(receipt), refund: refund))
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
  let shell = try journal.openShell()
  let tab = try shell.openTab(for: "Grace")
  let before = shell.snapshot
  let bytes = journal.bytes
  let revision = shell.revision
  #expect(throws: KioskError.notOnMenu(Item.ID(raw: 99))) { try shell.add(Item.ID(raw: 99), to: tab) }
  await #expect(throws: KioskError.unknownTab(Tab.ID(raw: 7))) { try await shell.settle(Tab.ID(raw: 7)) }
  #expect(throws: RestockError.nonPositiveCount(-1)) { try shell.restock(.milk, count: -1) }
  #expect(shell.snapshot == before)
  #expect(journal.bytes == bytes)
  #expect(shell.revision == revision)
  #expect(shell.undoDepth == 1)
}

@MainActor
@Test func aShortageInTheMiddleOfTheRecipesChangesNothing() async throws {
  let journal = try TemporaryJournal()
  let shell = try journal.openShell()
  let tab = try shell.openTab(for: "Ada")
  for _ in 0..<3 { try shell.add(Item.ID(raw: 3), to: tab) }  // oat latte: 2 oat milk each
  try shell.restock(.oatMilk, count: 1)
  let other = try shell.openTab(for: "Grace")
  for _ in 0..<4 { try shell.add(Item.ID(raw: 3), to: other) }
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
    let shell = try journal.openShell()
    let ada = try shell.openTab(for: "Ada")
    try shell.add(latte, to: ada)
    try shell.add(espresso, to: ada)
    _ = try await shell.settle(ada)
    try shell.restock(.milk, count: 5)
    _ = try await shell.undo()
    let grace = try shell.openTab(for: "Grace")
    try shell.add(latte, to: grace)
    expected = shell.snapshot
    records = shell.records
  }
  let reopened = try journal.openShell()
  #expect(reopened.snapshot == expected)
  #expect(reopened.records == records)
  #expect(reopened.undoDepth == 6)  // the undo took the restock off the stack
  #expect(try await reopened.undo()?.record == .added(item: latte, tab: Tab.ID(raw: 2)))
}

@MainActor
@Test func undoGoesBackAtMostAHundredCommands() async throws {
  let journal = try TemporaryJournal()
  let shell = try journal.openShell()
  for _ in 0..<(UndoHistory.depth + 5) { try shell.restock(.cup, count: 1) }
  #expect(shell.undoDepth == UndoHistory.depth)
  for _ in 0..<UndoHistory.depth { _ = try await shell.undo() }
  #expect(try await shell.undo() == nil)
  #expect(shell.snapshot.stock.units[.cup] == KioskDefaults.stock.units[.cup]! + 5)
}

/// Undo and rollback apply inverses instead of restoring copies: over random
/// streams of commands, refusals and undos, each undo lands exactly on the
/// state before its command (kept here, by copy, as the reference), and a
/// replay of the journal lands where the live shell did.
@MainActor
@Test(arguments: [UInt64(1), 2, 3, 4, 5])
func inversesAgreeWithCopiesAndWithReplayOverRandomCommandStreams(seed: UInt64) async throws {
  var random = SeededGenerator(seed: seed)
  let journal = try TemporaryJournal()
  let final: KioskSnapshot
  do {
    let shell = try journal.openShell()
    var before: [KioskSnapshot] = []
    for step in 0..<200 {
      let tabs = shell.snapshot.tabs.open.keys.sorted()
      let tab = tabs.randomElement(using: &random) ?? Tab.ID(raw: 1)
      let item = Item.ID(raw: Int.random(in: 1...5, using: &random))
      let state = shell.snapshot
      let done: Bool
      switch Int.random(in: 0..<10, using: &random) {
      case 0, 1: done = (try? shell.openTab(for: "Guest")) != nil
      case 2, 3, 4: done = (try? shell.add(item, to: tab)) != nil
      case 5: done = (try? shell.remove(item, from: tab)) != nil
      case 6: done = (try? await shell.settle(tab)) != nil
      case 7: done = (try? shell.restock(.milk, count: Int.random(in: 1...20, using: &random))) != nil
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
  let reopened = try journal.openShell()
  #expect(reopened.snapshot.canonicalJSON() == final.canonicalJSON())
}
