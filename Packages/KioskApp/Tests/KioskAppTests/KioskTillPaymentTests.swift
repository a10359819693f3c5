import Clock
import DurableStore
import Foundation
import Journal
import KioskCommands
import Menu
import Payment
import Stock
import Synchronization
import Tabs
import Testing

@testable import KioskApp

// Settling on the framework's store: the charge is the store's intent under
// the kiosk's key, journaled as the kiosk has always journaled it, and the
// bare store and the till as `kiosk` runs it (`TillShell`) each finish or go
// on with a day the other left with payments in it.

/// Stops the store at the `stopAt`-th crash seam it reaches once armed.
final class ArmedSeam: Sendable {
  private let state = Mutex((armed: false, reached: 0, stopAt: 0, stopped: false))

  /// Counts seams from now, and stops at the `stopAt`-th.
  func arm(stopAt: Int) { state.withLock { $0 = (true, 0, stopAt, false) } }

  /// Whether it stopped the store.
  var stopped: Bool { state.withLock { $0.stopped } }

  func seam(_ point: CrashPoint) throws(SimulatedCrash) {
    let stop = state.withLock { state -> Bool in
      guard state.armed else { return false }
      state.reached += 1
      if state.reached == state.stopAt { state.stopped = true }
      return state.reached == state.stopAt
    }
    if stop { throw SimulatedCrash() }
  }
}

/// A store with a day begun: Ada's tab holds a latte and an espresso. The
/// store is returned optional, for a test to let it go.
@MainActor func storeWithAdasTab(
  _ journal: TemporaryJournal, fault: ProcessorFault? = nil,
  seam: (@Sendable (CrashPoint) throws(SimulatedCrash) -> Void)? = nil
) throws -> (DurableStore<KioskTill>?, Tab.ID) {
  let store = try journal.openStore(fault: fault, seam: seam)
  try store.send(.initialize(menu: KioskDefaults.menu, stock: KioskDefaults.stock))
  guard case .opened(let ada, _)? = try store.send(.command(.openTab(customer: "Ada"))).outcome.record else {
    throw TillRefusal(description: "no tab opened")
  }
  try store.send(.command(.add(item: latte, tab: ada)))
  try store.send(.command(.add(item: espresso, tab: ada)))
  return (store, ada)
}

/// A record without the time its receipt was stamped: two runs charge at different instants.
func unstamped(_ record: KioskRecord) -> KioskRecord {
  guard case .settled(var receipt) = record else { return record }
  receipt.chargedAt = Date(timeIntervalSince1970: 0)
  return .settled(receipt)
}

@MainActor
@Test func aSettleOnTheStoreChargesOnceAndJournalsTheShellsIntentAndReceipt() async throws {
  let journal = try TemporaryJournal()
  let (opened, ada) = try storeWithAdasTab(journal)
  let store = try #require(opened)
  let needs = try store.state.settlement(for: ada).needs
  let receipt = try await store.settle(ada)
  let key = IdempotencyKey(journalSalt: store.salt, sequence: 5, tab: ada.raw)
  #expect(receipt.key == key, "the kiosk's key: the journal's salt, the intent's sequence, the tab")
  #expect(receipt.total == 7.50)
  #expect(store.state.slices.tabs.open[ada] == nil)
  #expect(store.state.paying.isEmpty && store.openIntents.isEmpty)
  #expect(needs[.milk, default: 0] > 0)
  #expect(store.state.slices.stock.units[.milk] == KioskDefaults.stock.units[.milk]! - needs[.milk, default: 0])
  #expect(
    try journal.records().suffix(2) == [
      .paymentIntent(PaymentIntent(kind: .charge, key: key, tab: ada, amount: 7.50)), .settled(receipt),
    ])
  let processor = store.environment.processor
  #expect(processor.ledger.entries.map(\.key) == [key])
  #expect(processor.ledger.entries.first?.reference == receipt.reference)
}

@MainActor
@Test(arguments: [JournalFormat.encoderVersion, JournalFormat.canonicalVersion])
func aDayWithPaymentsGoesOnOnTheStoreAndBackInTheTillInEitherFormat(version: UInt16) async throws {
  let journal = try TemporaryJournal()
  var till: TillShell? = try await journal.openTill(newFileVersion: version)
  let ada = try #require(try await till?.openTab(for: "Ada"))
  try await till?.add(latte, to: ada)
  _ = try await till?.settle(ada)
  try till?.store.checkpoint()
  let grace = try #require(try await till?.openTab(for: "Grace"))
  try await till?.add(espresso, to: grace)
  let before = try #require(till?.snapshot)
  till = nil

  var store: DurableStore<KioskTill>? = try journal.openStore()
  #expect(store?.state.slices == before)
  #expect(store?.state.paymentsJournaled == true)
  let receipt = try #require(try await store?.settle(grace))
  let after = try #require(store?.state.slices)
  store = nil

  till = try await journal.openTill()
  #expect(till?.snapshot == after)
  #expect(try journal.records().last == .settled(receipt))
  let linus = try #require(try await till?.openTab(for: "Linus"))
  try await till?.add(latte, to: linus)
  _ = try await till?.settle(linus)
  till = nil
  #expect(try DurableJournal.read(path: journal.path).version == version)
  #expect(try journal.movements().count == 3, "each tab charged once")
}

@MainActor
@Test func aDeclinedChargeIsGivenUpAndItsTabTakesCommandsAgain() async throws {
  let journal = try TemporaryJournal()
  let (opened, ada) = try storeWithAdasTab(journal, fault: .decline)
  let store = try #require(opened)
  await #expect(throws: KioskError.payment(.declined(reason: "the processor declines every payment (fault injection)")))
  {
    _ = try await store.settle(ada)
  }
  let key = IdempotencyKey(journalSalt: store.salt, sequence: 5, tab: ada.raw)
  guard case .paymentAbandoned(key, let reason)? = try journal.records().last else {
    Issue.record("the decline is journaled as the intent's abandonment")
    return
  }
  #expect(reason.hasPrefix("declined: "))
  #expect(store.state.paying.isEmpty && store.openIntents.isEmpty)
  #expect(store.state.slices.tabs.open[ada] != nil)
  try store.send(.command(.add(item: latte, tab: ada)))
  #expect(store.state.slices.tabs.open[ada]?.lines.count == 3)
  #expect(store.environment.processor.ledger.entries.isEmpty)
  let state = store.state
  _ = consume store
  _ = consume opened

  // Read back, the abandonment releases the tab as it did live.
  let reopened = try journal.openStore()
  #expect(reopened.state == state)
  try reopened.send(.command(.remove(item: latte, tab: ada)))
}

@MainActor
@Test func whileATabsChargeIsInFlightItsCommandsAndUndoAreRefusedAndItsStockKept() async throws {
  let journal = try TemporaryJournal()
  let (opened, ada) = try storeWithAdasTab(journal)
  let store = try #require(opened)
  try store.send(.command(.openTab(customer: "Grace")))
  let grace = try #require(store.state.slices.tabs.open.keys.max())
  try store.send(.command(.add(item: espresso, tab: grace)))

  try store.send(.settle(ada))
  #expect(store.state.paying == [ada])
  let inFlight = TillError.paymentInFlight(tab: ada).description
  for command in [KioskAction.add(item: latte, tab: ada), .remove(item: latte, tab: ada)] {
    let outcome = try store.send(.command(command)).outcome
    #expect(outcome.record == nil && outcome.reason?.contains(inFlight) == true, "\(command)")
  }
  let undo = try store.send(.command(.undo(key: IdempotencyKey(journalSalt: 1, sequence: 1)))).outcome
  #expect(undo.record == nil && undo.reason?.contains(inFlight) == true)
  #expect(try store.send(.settle(ada)).outcome.reason?.contains(inFlight) == true)
  try store.send(.command(.add(item: latte, tab: grace)))
  await store.finish()
  #expect(store.state.paying.isEmpty)
  #expect(store.state.slices.tabs.open[ada] == nil)
  #expect(store.state.slices.tabs.open[grace]?.lines.count == 2, "another tab took commands meanwhile")
}

@MainActor
@Test func aSettleTheStockCoversOnlyOnceTheChargesInFlightTookTheirsIsRefused() async throws {
  let journal = try TemporaryJournal()
  let store = try journal.openStore()
  var stock = KioskDefaults.stock
  stock.units[.beans] = 1  // one espresso's beans
  try store.send(.initialize(menu: KioskDefaults.menu, stock: stock))
  var tabs: [Tab.ID] = []
  for customer in ["Ada", "Grace"] {
    try store.send(.command(.openTab(customer: customer)))
    let tab = try #require(store.state.slices.tabs.open.keys.max())
    try store.send(.command(.add(item: espresso, tab: tab)))
    tabs.append(tab)
  }
  let needs = try store.state.settlement(for: tabs[0]).needs
  #expect(needs[.beans] == 1, "the menu's espresso takes what the stock holds: \(needs)")
  try store.send(.settle(tabs[0]))
  let refused = try store.send(.settle(tabs[1])).outcome
  #expect(refused.refusal == .kiosk(.shortage(.beans)))
  await store.finish()
  #expect(store.state.slices.tabs.open[tabs[0]] == nil)
  #expect(try store.send(.settle(tabs[1])).outcome.refusal == .kiosk(.shortage(.beans)))
}

@MainActor
@Test func aChargeWhoseAnswerWasLostIsFoundInTheLedgerAndSettledOnce() async throws {
  let journal = try TemporaryJournal()
  let (opened, ada) = try storeWithAdasTab(journal, fault: .failAfterCharging)
  let store = try #require(opened)
  let receipt = try await store.settle(ada)
  #expect(store.state.slices.tabs.open[ada] == nil)
  #expect(store.environment.processor.ledger.entries.map(\.reference) == [receipt.reference])
  #expect(store.environment.processor.movementsAsked == 1, "asked once: the ledger answered for the lost answer")
}

/// A store stopped at each seam of a settle in turn (the intent's record,
/// the charge, the outcome's record), then opened again: the charge was made
/// at most once, the tab is settled exactly when it was, no intent stays
/// open, and the till, as `kiosk` opens it, then opens the same day.
@MainActor
@Test func aSettleStoppedAtEachOfItsSeamsIsFinishedOnOpenWithOneChargeAtMost() async throws {
  var seamsInASettle = 0
  for stopAt in 1...12 {
    let journal = try TemporaryJournal()
    let counter = ArmedSeam()
    var (store, ada) = try storeWithAdasTab(journal) { point throws(SimulatedCrash) in try counter.seam(point) }
    counter.arm(stopAt: stopAt)
    var settled: Receipt?
    do { settled = try await store?.settle(ada) } catch {}
    await store?.cancelAll()
    let chargedBeforeTheStop = store?.environment.processor.ledger.entries.count ?? 0
    store = nil
    if settled != nil {
      #expect(counter.stopped == false)
      seamsInASettle = stopAt - 1
      break
    }

    let reopened = try journal.openStore()
    await reopened.finish()
    let charges = reopened.environment.processor.ledger.entries
    #expect(charges.count == chargedBeforeTheStop, "stopped at seam \(stopAt): no charge is made after a restart")
    #expect(reopened.openIntents.isEmpty && reopened.state.paying.isEmpty, "stopped at seam \(stopAt)")
    #expect((reopened.state.slices.tabs.open[ada] == nil) == (charges.count == 1), "stopped at seam \(stopAt)")
    let slices = reopened.state.slices
    _ = consume reopened

    let till = try await journal.openTill()
    #expect(till.snapshot == slices, "stopped at seam \(stopAt)")
    #expect(try till.view(withLedger: false).openIntents.isEmpty)
  }
  #expect(seamsInASettle >= 4, "a settle passes the intent's record, the charge and the outcome's record")
}

/// A journal restored from a copy taken before a settle: the processor holds
/// the charge the copy has no record of. Settling the tab again adopts it
/// under its key (no money moves again); a tab of another total is refused.
@MainActor
@Test func aChargeTheProcessorHoldsForARestoredJournalIsAdoptedNotMadeAgain() async throws {
  let journal = try TemporaryJournal()
  var (store, ada) = try storeWithAdasTab(journal)
  try store?.send(.command(.openTab(customer: "Grace")))
  let grace = try #require(store?.state.slices.tabs.open.keys.max())
  try store?.send(.command(.add(item: latte, tab: grace)))
  store = nil
  let copy = journal.bytes
  store = try journal.openStore()
  let first = try #require(try await store?.settle(ada))
  _ = try await store?.settle(grace)
  store = nil
  try copy.write(to: URL(fileURLWithPath: journal.path))

  store = try journal.openStore()
  // One more record first: the settle's own key is then another than the held charge's.
  try store?.send(.command(.openTab(customer: "Linus")))
  let adopted = try #require(try await store?.settle(ada))
  #expect(adopted.reference == first.reference && adopted.key == first.key)
  try store?.send(.command(.add(item: espresso, tab: grace)))
  await #expect {
    _ = try await store?.settle(grace)
  } throws: { error in
    guard case TillError.heldChargeDiffers(let tab, _, _, _) = error else { return false }
    return tab == grace
  }
  #expect(store?.environment.processor.ledger.entries.count == 2, "no money moved again")
}

/// A journal restored from a copy after the till settled and refunded a
/// tab: the keys the copy gives again were used. The store asks the
/// processor before using each, gives a used one up, and asks again under
/// the next one.
@MainActor
@Test func aKeyTheProcessorUsedBeforeIsGivenUpAndTheSettleAskedAgainUnderTheNext() async throws {
  let journal = try TemporaryJournal()
  var (store, ada) = try storeWithAdasTab(journal)
  store = nil
  let copy = journal.bytes
  var till: TillShell? = try await journal.openTill()
  _ = try await till?.settle(ada)
  _ = try await till?.undo()
  till = nil
  try copy.write(to: URL(fileURLWithPath: journal.path))

  store = try journal.openStore()
  let receipt = try #require(try await store?.settle(ada))
  let records = try journal.records()
  let intents = records.compactMap { if case .paymentIntent(let intent) = $0 { intent } else { nil } }
  let givenUp = records.compactMap {
    if case .paymentAbandoned(let key, let reason) = $0 { (key, reason) } else { nil }
  }
  // The charge's key and its refund's, each used before: given up, then a third.
  #expect(intents.count == 3 && givenUp.map(\.0) == intents.prefix(2).map(\.key))
  #expect(givenUp.allSatisfy { KioskTill.isKeyUsedBefore($0.1) })
  #expect(receipt.key == intents.last?.key)
  #expect(store?.state.slices.tabs.open[ada] == nil)
  #expect(store?.environment.processor.ledger.entries.count == 3, "the charge, its refund, and this charge")
}

/// The charge of a tab the day carries over, held by the processor for a
/// journal restored from a copy: the next day's keys would not find it, so
/// the day is not closed until the tab is settled today (and the charge
/// adopted).
@MainActor
@Test func aDayWhoseOpenTabTheProcessorHoldsAChargeOfIsNotClosed() async throws {
  let journal = try TemporaryJournal()
  var (store, ada) = try storeWithAdasTab(journal)
  store = nil
  let copy = journal.bytes
  store = try journal.openStore()
  _ = try await store?.settle(ada)
  store = nil
  try copy.write(to: URL(fileURLWithPath: journal.path))

  store = try journal.openStore()
  #expect {
    try store?.closeDay()
  } throws: { error in
    guard case TillError.heldChargeOfOpenTab(let tab, _, _) = error else { return false }
    return tab == ada
  }
  #expect(store?.period == 0)
  _ = try await store?.settle(ada)
  #expect(try store?.closeDay() == 1)
  #expect(store?.environment.processor.ledger.entries.count == 1)
}

/// What only the journal or the processor gives the store (a record read
/// back, an intent, a charge's or a refund's answer, a payment given up)
/// is not the app's to send: sent, it would settle a tab no one charged. And
/// a record read back that touches a tab whose charge is in flight does not
/// apply, as its command would not.
@MainActor
@Test func theStoresOwnStepsAreNotSentAndRecordsWaitForAChargeInFlight() async throws {
  let journal = try TemporaryJournal()
  let (opened, ada) = try storeWithAdasTab(journal)
  let store = try #require(opened)
  let key = IdempotencyKey(journalSalt: store.salt, sequence: 5, tab: ada.raw)
  let receipt = Receipt(tab: ada, total: 7.50, chargedAt: Date(), reference: "ch_forged", key: key)
  var keyless = receipt
  keyless.key = nil
  let before = journal.bytes
  for action in [
    KioskTill.Action.charged(receipt), .refunded(reference: "re_forged", key: key), .released(tab: ada),
    .intent(PaymentIntent(kind: .charge, key: key, tab: ada, amount: 7.50)), .record(.settled(keyless)),
    .record(.undone(refund: nil, key: nil)), .record(.added(item: latte, tab: ada)),
  ] {
    #expect(throws: DurableStoreError.notSendable(KioskTill.name(of: action))) { try store.send(action) }
  }
  #expect(journal.bytes == before && store.state.slices.tabs.open[ada] != nil)

  try store.send(.settle(ada))
  var state = store.state
  let refused = KioskTill.step(&state, .record(.added(item: latte, tab: ada))).outcome
  #expect(refused.record == nil && refused.reason == TillError.paymentInFlight(tab: ada).description)
  #expect(state == store.state)
  await store.finish()
  #expect(store.state.slices.tabs.open[ada] == nil)
}

/// A journal whose intent asks for another amount than its tab's total (a
/// till never writes one) is refused on open, with the intent's number.
@MainActor
@Test func anIntentReadBackThatIsNotTheTabsTotalRefusesTheDay() async throws {
  let journal = try TemporaryJournal()
  do {
    var file = try DurableJournal(path: journal.path)
    try file.append(KioskRecord.initialized(menu: KioskDefaults.menu, stock: KioskDefaults.stock))
    try file.append(KioskRecord.opened(tab: Tab.ID(raw: 1), customer: "Ada"))
    try file.append(KioskRecord.added(item: latte, tab: Tab.ID(raw: 1)))
    let key = IdempotencyKey(journalSalt: file.salt, sequence: 4, tab: 1)
    try file.append(KioskRecord.paymentIntent(PaymentIntent(kind: .charge, key: key, tab: Tab.ID(raw: 1), amount: 1)))
  }
  #expect {
    _ = try journal.openStore()
  } throws: { error in
    guard case DurableStoreError.replay(let sequence, let reason) = error else { return false }
    return sequence == 4 && reason.contains("total")
  }
}

/// A day with a payment closed on the store: the next day's opening
/// checkpoint says the till's journals hold payments, so a till that then
/// finds the processor's ledger gone refuses to open
/// rather than start a new one that would abandon real charges.
@MainActor
@Test func theNextDayOfADayWithPaymentsSaysSoAndATillRefusesAMissingLedger() async throws {
  let journal = try TemporaryJournal()
  var (store, ada) = try storeWithAdasTab(journal)
  _ = try await store?.settle(ada)
  #expect(try store?.closeDay() == 1)
  #expect(store?.state.paymentsJournaled == true)
  store = nil
  let ledger = LocalProcessor.defaultPath(besideJournal: journal.path)
  try FileManager.default.removeItem(atPath: ledger)
  await #expect(throws: TillError.ledgerMissing(path: ledger)) { _ = try await journal.openTill() }
  #expect(!FileManager.default.fileExists(atPath: ledger), "no empty ledger left behind")
}

/// The store opened as `kiosk` opens the till: a journal with payments
/// beside a ledger that is gone is refused before anything is written, and
/// no empty ledger is left to be taken for the real one.
@MainActor
@Test func theTillOnTheStoreRefusesAJournalWithPaymentsWhoseLedgerIsGone() async throws {
  let journal = try TemporaryJournal()
  var (store, ada) = try storeWithAdasTab(journal)
  _ = try await store?.settle(ada)
  try store?.send(.command(.openTab(customer: "Grace")))
  store = nil
  let ledger = LocalProcessor.defaultPath(besideJournal: journal.path)
  let kept = try Data(contentsOf: URL(fileURLWithPath: ledger))
  try FileManager.default.removeItem(atPath: ledger)
  let before = journal.bytes
  #expect(throws: TillError.ledgerMissing(path: ledger)) {
    _ = try DurableStore<KioskTill>.openTill(at: journal.path)
  }
  #expect(journal.bytes == before)
  #expect(!FileManager.default.fileExists(atPath: ledger))

  try kept.write(to: URL(fileURLWithPath: ledger))
  let reopened = try DurableStore<KioskTill>.openTill(at: journal.path)
  #expect(reopened.state.slices.tabs.open[ada] == nil && reopened.environment.processor.ledger.entries.count == 1)
}

/// A journal and a ledger that are not a pair are refused before anything
/// is written: a new journal beside a ledger that
/// holds another till's movements, and a first day beside a ledger that moved
/// money under another journal's keys.
@MainActor
@Test func theTillOnTheStoreRefusesALedgerThatIsNotItsJournals() async throws {
  let other = try TemporaryJournal()
  var (store, ada) = try storeWithAdasTab(other)
  _ = try await store?.settle(ada)
  store = nil
  let otherLedger = LocalProcessor.defaultPath(besideJournal: other.path)

  let journal = try TemporaryJournal()
  #expect(throws: TillError.ledgerOfAnotherJournal(path: otherLedger, movements: 1)) {
    _ = try DurableStore<KioskTill>.openTill(at: journal.path, ledger: otherLedger)
  }
  #expect(!FileManager.default.fileExists(atPath: journal.path), "no journal is begun")

  var mine: DurableStore<KioskTill>? = try DurableStore<KioskTill>.openTill(at: journal.path)
  try mine?.send(.initialize(menu: KioskDefaults.menu, stock: KioskDefaults.stock))
  mine = nil
  let before = journal.bytes
  #expect(throws: TillError.ledgerMovedOn(path: otherLedger, journal: journal.path, movements: 1)) {
    _ = try DurableStore<KioskTill>.openTill(at: journal.path, ledger: otherLedger)
  }
  #expect(journal.bytes == before)
  // Its own journal opens beside it.
  _ = try DurableStore<KioskTill>.openTill(at: other.path)
}

/// Money moved on a day, in each format's bytes: a charge, its refund by an
/// undo, and a second charge, written through the till as `kiosk` runs it, on
/// a stopped clock. The journal's and the ledger's salts are drawn when each
/// is made, so keys and references are pinned without them.
@MainActor
@Test(arguments: [JournalFormat.encoderVersion, JournalFormat.canonicalVersion])
func aDayOfChargesAndARefundJournalsTheGoldenPaymentBytes(version: UInt16) async throws {
  let journal = try TemporaryJournal()
  let stopped = EffectEnvironment(
    clock: FixedClock(frozenNow: Date(timeIntervalSince1970: 1_796_000_000)), jitter: .none,
    policy: .singleAttempt, network: .direct)
  var till: TillShell? = try await journal.openTill(newFileVersion: version, effects: stopped)
  let ada = try #require(try await till?.openTab(for: "Ada"))
  try await till?.add(latte, to: ada)
  try await till?.add(espresso, to: ada)
  _ = try await till?.settle(ada)
  let undone = try #require(try await till?.undo())
  #expect(undone.refund != nil, "a settle is undone by a refund")
  let grace = try #require(try await till?.openTab(for: "Grace"))
  try await till?.add(latte, to: grace)
  _ = try await till?.settle(grace)
  let salt = try #require(till?.store.salt)
  till = nil

  let records = try journal.recordPayloads()
  #expect(records.count == 12)
  try expectGoldenDay(records, version: version, named: "payments") { text in
    text.replacing(IdempotencyKey.prefix(journalSalt: salt), with: "k_<salt>_")
      .replacing(/(ch|re)_[0-9a-f]+_/) { "\($0.output.1)_<ledger>_" }
  }
}
