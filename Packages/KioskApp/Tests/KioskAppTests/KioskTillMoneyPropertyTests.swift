import DurableStore
import Foundation
import Journal
import KioskCommands
import Menu
import Payment
import Tabs
import Testing
import _ServiceLinkerTestSupport

@testable import KioskApp

// The till as `kiosk` runs it (`TillShell`: a checkpoint when due, open
// intents asked about, adoptions kept) and the bare store on two copies of
// one day (the same salt, the same ledger), sent the same random commands,
// settles and undos among them: after every command both journaled it or
// neither did, and they hold the same state and the same processor ledger; at
// the end, the same records. The policy around the store moves no money of
// its own.

/// A command for both, or a settle, with tabs and items that may not exist.
private enum MoneyStep: CustomStringConvertible {
  case command(KioskAction)
  case settle(Tab.ID)
  case undo

  static func random(_ random: inout SeededGenerator, nextTab: Int) -> MoneyStep {
    let tab = Tab.ID(raw: Int.random(in: 1...max(1, nextTab), using: &random))
    let item = Item.ID(raw: Int.random(in: 0...6, using: &random))
    switch Int.random(in: 0..<12, using: &random) {
    case 0, 1: return .command(.openTab(customer: "Guest"))
    case 2, 3, 4: return .command(.add(item: item, tab: tab))
    case 5: return .command(.remove(item: item, tab: tab))
    case 6: return .command(.restock(ingredient: .beans, count: Int.random(in: 1...5, using: &random)))
    case 7, 8, 9: return .settle(tab)
    default: return .undo
    }
  }

  var description: String {
    switch self {
    case .command(let command): "\(command)"
    case .settle(let tab): "settle #\(tab.raw)"
    case .undo: "undo"
    }
  }
}

/// Runs `step` through the till; whether it journaled anything.
@MainActor private func journaled(_ step: MoneyStep, on shell: TillShell, journal: TemporaryJournal) async throws
  -> Bool
{
  let before = try journal.records().count
  do {
    switch step {
    case .command(.openTab(let customer)): _ = try await shell.openTab(for: customer)
    case .command(.add(let item, let tab)): try await shell.add(item, to: tab)
    case .command(.remove(let item, let tab)): try await shell.remove(item, from: tab)
    case .command(.restock(let ingredient, let count)): try await shell.restock(ingredient, count: count)
    case .command: Issue.record("no other command is sent")
    case .settle(let tab): _ = try await shell.settle(tab)
    case .undo: _ = try await shell.undo()
    }
  } catch let error as DurableStoreError {
    throw error
  } catch {}
  return try journal.records().count > before
}

/// Runs `step` on the store; whether it journaled anything.
@MainActor private func journaled(_ step: MoneyStep, on store: DurableStore<KioskTill>, journal: TemporaryJournal)
  async throws -> Bool
{
  let before = try journal.records().count
  do {
    switch step {
    case .command(let command): try store.send(.command(command))
    case .settle(let tab): _ = try await store.settle(tab)
    case .undo: _ = try await store.undoNewest()
    }
  } catch let error as DurableStoreError {
    throw error
  } catch {}
  return try journal.records().count > before
}

@MainActor
@Test(arguments: [UInt64(7), 8, 9])
func randomSettlesAndUndosDoTheSameThroughTheTillAndOnTheStore(seed: UInt64) async throws {
  let byShell = try TemporaryJournal()
  let shell = try await byShell.openTill()
  try await shell.restock(.beans, count: 10)
  // Copied while the till holds them: every record and movement is synced.
  let byStore = try TemporaryJournal()
  for suffix in ["", ".processor"] {
    try FileManager.default.copyItem(atPath: byShell.path + suffix, toPath: byStore.path + suffix)
  }
  let store = try byStore.openStore()
  var random = SeededGenerator(seed: seed)
  var settles = 0
  var refunds = 0
  for index in 0..<150 {
    let step = MoneyStep.random(&random, nextTab: shell.snapshot.tabs.nextID - 1)
    let byTheShell = try await journaled(step, on: shell, journal: byShell)
    let byTheStore = try await journaled(step, on: store, journal: byStore)
    #expect(byTheShell == byTheStore, "step \(index): \(step)")
    #expect(shell.snapshot == store.state.slices, "step \(index): \(step)")
    // A receipt carries the second it was charged in, which two runs need not share.
    #expect(shell.store.state.undo.map(unstamped) == store.state.undo.map(unstamped), "step \(index): \(step)")
    #expect(shell.processorLedger == store.environment.processor.ledger.entries, "step \(index): \(step)")
    if byTheShell, case .settle = step { settles += 1 }
    if byTheShell, case .undo = step, case .undone(.some, _)? = try byShell.records().last { refunds += 1 }
  }
  #expect(settles >= 3 && refunds >= 1, "enough money moved: \(settles) settles, \(refunds) refunds")
  #expect(try byStore.records().map(unstamped) == byShell.records().map(unstamped))
}

/// An undo history entry without the time its receipt was stamped.
private func unstamped(_ entry: UndoHistory.Entry) -> UndoHistory.Entry {
  UndoHistory.Entry(record: unstamped(entry.record), step: entry.step)
}
