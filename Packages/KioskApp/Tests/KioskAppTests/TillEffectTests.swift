import Clock
import DurableStore
import Foundation
import Journal
import KioskCommands
import Payment
import Synchronization
import Tabs
import Testing
import VirtualTime

@testable import KioskApp

// The till's payments on virtual time, under the kiosk's retry policy as the
// store runs it (`KioskTill.effectPolicy`): no test here sleeps.

/// A till on `clock`'s virtual time, reaching the processor over `network`,
/// and Ada's tab holding a latte (4.50).
@MainActor private func adaWithALatte(
  _ journal: TemporaryJournal, clock: TestClock, network: ProcessorNetwork, jitter: [Double] = [0]
) async throws -> (TillShell, Tab.ID) {
  let effects = EffectEnvironment(
    clock: VirtualClock(clock), jitter: .sequence(jitter), policy: .standard, network: network)
  let till = try await journal.openTill(effects: effects)
  let ada = try await till.openTab(for: "Ada")
  try await till.add(latte, to: ada)
  return (till, ada)
}

/// Runs `work` on the main actor while `clock` moves on a quarter of a second
/// at a time, until it ends (a thousand steps at most), and returns its result.
@MainActor private func advancing<Value: Sendable>(
  _ clock: TestClock, _ work: @escaping @MainActor () async throws -> Value
) async -> Result<Value, any Error> {
  let done = Mutex(false)
  let task = Task { @MainActor in
    defer { done.withLock { $0 = true } }
    return try await work()
  }
  var steps = 0
  while !done.withLock({ $0 }) && steps < 1_000 {
    await clock.advance(by: .milliseconds(250))
    steps += 1
  }
  return await task.result
}

@MainActor
@Test func aSlowProcessorAnswersWithinTheDeadlineAndTheTabSettles() async throws {
  let journal = try TemporaryJournal()
  let clock = TestClock()
  let (till, ada) = try await adaWithALatte(journal, clock: clock, network: .slow(latency: .seconds(1)))
  let receipt = try await advancing(clock) { try await till.settle(ada) }.get()
  #expect(receipt.total == 4.5)
  // Not before the answer; how long after depends on how soon the woken work ran (no upper bound but a sane one).
  #expect(clock.elapsed >= .seconds(1) && clock.elapsed < .seconds(60), "answered after a second: \(clock.elapsed)")
  #expect(till.snapshot.tabs.isSettled(ada))
  #expect(till.processorLedger.map(\.reference) == [receipt.reference])
  #expect(try till.view(withLedger: false).openIntents.isEmpty)
}

/// Two seconds an attempt, ten in all, backing off from half a second with
/// the jitter drawn in turn. The processor never answers: after the first
/// attempt, whose fate is unknown, it is only asked (never charged again
/// blind) until the deadline, and the settle ends unanswered, exit 75, its
/// intent left open for the next writer.
@MainActor
@Test func aSilentProcessorIsGivenUpAtTheDeadlineAfterItsRetriesAndTheChargeLeftOpen() async throws {
  let journal = try TemporaryJournal()
  let clock = TestClock()
  let (till, ada) = try await adaWithALatte(journal, clock: clock, network: .silent, jitter: [0.5, 0.25, 0])
  let settled = await advancing(clock) { try await till.settle(ada) }
  guard case .failure(TillError.unresolved(let key, let attempts)) = settled else {
    Issue.record("the settle ended with \(settled), not unanswered")
    return
  }
  #expect(attempts == 1, "one charge sent; asked about after, never sent again blind")
  #expect(clock.elapsed >= .seconds(10) && clock.elapsed < .seconds(60), "given up at the deadline: \(clock.elapsed)")
  #expect(try till.view(withLedger: false).openIntents.map(\.key) == [key], "left for reconciliation")
  #expect(till.tab(ada) != nil, "the tab stays open")
  #expect(till.processorLedger.isEmpty, "no request reached the processor")
}

/// The first attempt charges and its answer is lost: after its two seconds
/// and the first backoff (half a second, plus the drawn jitter of 0.99 of
/// it), the processor is asked, finds the charge, and the tab settles with
/// it: charged once, under the intent's key.
@MainActor
@Test func aLostAnswerIsAskedAboutAfterTheBackoffAndChargesOnceUnderTheSameKey() async throws {
  let journal = try TemporaryJournal()
  let clock = TestClock()
  let (till, ada) = try await adaWithALatte(journal, clock: clock, network: .losesFirstAnswer, jitter: [0.99])
  let receipt = try await advancing(clock) { try await till.settle(ada) }.get()
  #expect(clock.elapsed >= .milliseconds(2_995) && clock.elapsed < .seconds(60), "asked at 2.995 s: \(clock.elapsed)")
  #expect(till.processorLedger.count == 1, "the first attempt charged; the retry charged nothing more")
  #expect(till.processorLedger.first?.key == receipt.key)
  #expect(try till.paymentAudit().agrees)
}

/// A refund the processor never answers leaves the settle in place, its
/// intent open. The next till, whose processor answers, finds no refund
/// under its key (it never arrived) and closes the intent; the settle is
/// still in place, and undoing it then refunds once.
@MainActor
@Test func aRefundWithNoAnswerLeavesTheSettleInPlaceUntilTheNextTillFindsIt() async throws {
  let journal = try TemporaryJournal()
  let clock = TestClock()
  let ada: Tab.ID
  do {
    let (till, tab) = try await adaWithALatte(journal, clock: clock, network: .direct)
    _ = try await till.settle(tab)
    ada = tab
  }
  do {
    let silent = EffectEnvironment(
      clock: VirtualClock(clock), jitter: .none, policy: .standard, network: .silent)
    let till = try await journal.openTill(effects: silent)
    let undone = await advancing(clock) { try await till.undo() }
    guard case .failure(TillError.unresolved) = undone else {
      Issue.record("the undo ended with \(undone), not unanswered")
      return
    }
    #expect(till.snapshot.tabs.isSettled(ada))
    #expect(try till.view(withLedger: false).openIntents.map(\.kind) == [.refund])
  }
  let till = try await journal.openTill()
  #expect(till.reconciled.map(\.intent.kind) == [.refund])
  #expect(till.reconciled.map(\.resolution) == [.abandoned])
  #expect(till.snapshot.tabs.isSettled(ada), "nothing was refunded: the settle stays")
  #expect(till.processorLedger.map(\.kind) == [.charge])
  #expect(try await till.undo()?.refund != nil)
  #expect(till.tab(ada) != nil, "the undo completed: the tab is open again")
  #expect(till.processorLedger.map(\.kind) == [.charge, .refund])
  #expect(try till.paymentAudit().agrees)
}
