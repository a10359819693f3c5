import DurableStore
import Foundation
import Journal
import KioskCommands
import Payment
import Tabs
import Testing

@testable import KioskApp

// What `kiosk` runs: the till on the durable store with the kiosk's policy
// around it (`TillShell`). The binary's end-to-end tests (KioskCLITests) run
// it too; these pin its own parts.

/// Ada's tab, holding a latte and an espresso, on a store stopped at the
/// `stopAt`-th seam of her settle (or settled, when the settle has fewer).
@MainActor private func settleStopped(at stopAt: Int, _ journal: TemporaryJournal) async throws -> Tab.ID {
  let counter = ArmedSeam()
  var (store, ada) = try storeWithAdasTab(journal) { point throws(SimulatedCrash) in try counter.seam(point) }
  counter.arm(stopAt: stopAt)
  _ = try? await store?.settle(ada)
  await store?.cancelAll()
  store = nil
  return ada
}

@MainActor
@Test func aNewTillBeginsItsDayWithTheDefaultMenuAndStock() async throws {
  let journal = try TemporaryJournal()
  let till = try await TillShell.open(journal: journal.path)
  #expect(till.snapshot.menu == KioskDefaults.menu && till.snapshot.stock == KioskDefaults.stock)
  #expect(till.day == 1 && till.reconciled.isEmpty && till.finishedInterruptedClose == nil)
  let ada = try await till.openTab(for: "Ada")
  try await till.add(latte, to: ada)
  #expect(try till.view(withLedger: false).openIntents.isEmpty)
  #expect(try journal.records().count == 3)
}

@MainActor
@Test func aChargeLeftOpenIsAskedAboutOnTheWayInAndWhatItResolvedIsKept() async throws {
  // Stopped after the intent's record, before the charge: nothing moved.
  let beforeCharge = try TemporaryJournal()
  let ada = try await settleStopped(at: 2, beforeCharge)
  let unpaid = try await TillShell.open(journal: beforeCharge.path)
  #expect(unpaid.reconciled.map(\.resolution) == [.abandoned])
  #expect(unpaid.tab(ada) != nil, "the tab takes commands again")
  #expect(unpaid.store.openIntents.isEmpty)

  // Stopped after the charge, before its outcome's record: the money moved.
  let afterCharge = try TemporaryJournal()
  _ = try await settleStopped(at: 4, afterCharge)
  let paid = try await TillShell.open(journal: afterCharge.path)
  let reference = try #require(paid.store.environment.processor.ledger.entries.first?.reference)
  #expect(paid.reconciled.map(\.resolution) == [.completed(reference: reference)])
  #expect(paid.tab(ada) == nil, "settled with the charge the processor made")
}

@MainActor
@Test func everyChargeLeftOpenIsReportedOnTheWayInWhicheverEndsFirst() async throws {
  let journal = try TemporaryJournal()
  var (store, ada) = try storeWithAdasTab(journal)
  guard case .opened(let bob, _)? = try store?.send(.command(.openTab(customer: "Bob"))).outcome.record else {
    throw TillRefusal(description: "no tab opened")
  }
  try store?.send(.command(.add(item: espresso, tab: bob)))
  // Both intents journaled, their requests cancelled before they reach the processor.
  try store?.send(.settle(ada))
  try store?.send(.settle(bob))
  await store?.cancelAll()
  #expect(store?.openIntents.count == 2)
  store = nil

  let till = try await TillShell.open(journal: journal.path)
  #expect(till.reconciled.map(\.intent.tab) == [ada, bob])
  #expect(till.reconciled.allSatisfy { $0.resolution == .abandoned })
  #expect(till.store.openIntents.isEmpty && till.tab(ada) != nil && till.tab(bob) != nil)
}

@MainActor
@Test func aChargeTheProcessorHeldIsAdoptedAndSaidSo() async throws {
  let journal = try TemporaryJournal()
  var (store, ada) = try storeWithAdasTab(journal)
  store = nil
  let copy = journal.bytes
  store = try journal.openStore()
  let first = try #require(try await store?.settle(ada))
  store = nil
  try copy.write(to: URL(fileURLWithPath: journal.path))

  let till = try await TillShell.open(journal: journal.path)
  let adopted = try await till.settle(ada)
  #expect(adopted.reference == first.reference)
  #expect(till.adoptions.map(\.movement.reference) == [first.reference])
  #expect(till.adoptions.first?.receipt == adopted)
  #expect(till.store.environment.processor.ledger.entries.count == 1, "no money moved again")
}

@MainActor
@Test func aCloseFinishedOnOpenIsReportedOnlyUntilSomethingIsJournaled() async throws {
  let journal = try TemporaryJournal()
  let stopAtNextDay = ArmedSeam()
  var (store, _) = try storeWithAdasTab(journal) { point throws(SimulatedCrash) in
    if point == .periodEnded { try stopAtNextDay.seam(point) }
  }
  stopAtNextDay.arm(stopAt: 1)
  #expect(throws: DurableStoreError.stopped(at: .periodEnded)) { try store?.closeDay() }
  store = nil

  let till = try await TillShell.open(journal: journal.path)
  #expect(till.finishedInterruptedClose == 1 && till.day == 2)
  // Something journaled since: the next close closes day 2, not day 1's report again.
  let cy = try await till.openTab(for: "Cy")
  let report = try await till.closeDay()
  #expect(report.day == 2 && report.openTabs == 2, "Ada's tab, carried over, and Cy's")
  #expect(till.day == 3 && till.tab(cy) != nil)
}

@MainActor
@Test func aDayIsClosedWithItsZReportAndTheNextOpensOnItsCheckpoint() async throws {
  let journal = try TemporaryJournal()
  var till: TillShell? = try await TillShell.open(journal: journal.path)
  let ada = try #require(try await till?.openTab(for: "Ada"))
  try await till?.add(latte, to: ada)
  _ = try await till?.settle(ada)
  let bob = try #require(try await till?.openTab(for: "Bob"))
  let report = try #require(try await till?.closeDay())
  #expect(report.day == 1 && report.charges.count == 1 && report.openTabs == 1)
  #expect(till?.day == 2 && till?.tab(bob) != nil)
  till = nil
  let reopened = try await TillShell.open(journal: journal.path)
  #expect(reopened.day == 2 && reopened.tab(bob) != nil)
  #expect(try reopened.settledListing().tabs.isEmpty, "the day's settled tabs stay in its archive")
}
