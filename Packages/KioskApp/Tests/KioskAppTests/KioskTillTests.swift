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
import _ServiceLinkerTestSupport

@testable import KioskApp

// The till feature on the framework's durable store (`KioskTill`,
// `KioskTillFormat`), alone and as `kiosk` runs it (`TillShell`): each opens
// a day the other wrote, as the other left it, and goes on with it; both
// write the bytes of the golden days, in format 2 and in format 3.

/// The day every test here runs: tabs opened, items added and taken off, a
/// delivery, an undo, the till named; no money moves.
@MainActor private func runDay(
  open: (String) async throws -> Tab.ID, add: (Item.ID, Tab.ID) async throws -> Void,
  remove: (Item.ID, Tab.ID) async throws -> Void, restock: (Ingredient, Int) async throws -> Void,
  undo: () async throws -> Void, name: (String) async throws -> Void
) async throws {
  let ada = try await open("Ada")
  try await add(latte, ada)
  try await add(espresso, ada)
  try await remove(latte, ada)
  let grace = try await open("Grace Hopper")
  try await add(latte, grace)
  try await restock(.milk, 6)
  try await undo()
  try await name("north")
  try await add(espresso, grace)
}

@MainActor private func runDay(on till: TillShell) async throws {
  try await runDay(
    open: { try await till.openTab(for: $0) }, add: { try await till.add($0, to: $1) },
    remove: { try await till.remove($0, from: $1) }, restock: { try await till.restock($0, count: $1) },
    undo: { _ = try await till.undo() }, name: { try await till.nameTill($0) })
}

@MainActor private func runDay(on store: DurableStore<KioskTill>) async throws {
  func send(_ action: KioskTill.Action) throws -> KioskRecord {
    let outcome = try store.send(action).outcome
    guard let record = outcome.record else { throw StoreRefused(outcome: outcome) }
    return record
  }
  if !store.state.initialized {
    _ = try send(.initialize(menu: KioskDefaults.menu, stock: KioskDefaults.stock))
  }
  try await runDay(
    open: { customer in
      guard case .opened(let id, _) = try send(.command(.openTab(customer: customer))) else { throw StoreRefused() }
      return id
    },
    add: { _ = try send(.command(.add(item: $0, tab: $1))) },
    remove: { _ = try send(.command(.remove(item: $0, tab: $1))) },
    restock: { _ = try send(.command(.restock(ingredient: $0, count: $1))) },
    undo: { _ = try send(.command(.undo(key: IdempotencyKey(journalSalt: 1, sequence: 1)))) },
    name: { _ = try send(.nameTill($0)) })
}

/// A step the store answered without a record.
private struct StoreRefused: Error {
  var outcome: KioskTill.Outcome?
}

@MainActor
@Test(arguments: [JournalFormat.encoderVersion, JournalFormat.canonicalVersion])
func aDayTheTillWroteOpensOnTheStoreAsTheTillLeftIt(version: UInt16) async throws {
  let journal = try TemporaryJournal()
  var shell: TillShell? = try await journal.openTill(newFileVersion: version, checkpointEvery: 4)
  try await runDay(on: try #require(shell))
  let (snapshot, undo, till) = (shell!.snapshot, shell!.store.state.undo, shell!.tillName)
  shell = nil
  #expect(try DurableJournal.read(path: journal.path).startedAtCheckpoint)

  let store = try journal.openStore()
  #expect(store.state.slices == snapshot)
  #expect(store.state.undo == undo)
  #expect(store.state.till == till)
  #expect(try DurableStore<KioskTill>.read(at: journal.path, initial: KioskTill.State()).state == store.state)
}

@MainActor
@Test(arguments: [JournalFormat.encoderVersion, JournalFormat.canonicalVersion])
func aDayTheStoreGoesOnWithOpensInTheTillAndGoesOnThere(version: UInt16) async throws {
  let journal = try TemporaryJournal()
  var shell: TillShell? = try await journal.openTill(newFileVersion: version)
  _ = try await shell?.openTab(for: "Ada")
  shell = nil

  // The store continues a day the till began, in its version, checkpoints included.
  var store: DurableStore<KioskTill>? = try journal.openStore(checkpointBytes: 200)
  try await runDay(on: try #require(store))
  let state = try #require(store?.state)
  store = nil
  #expect(try DurableJournal.read(path: journal.path).version == version)

  let records = try lastSequence(journal.path)
  shell = try await journal.openTill()
  #expect(try lastSequence(journal.path) == records, "the settled-tabs file is kept")
  #expect(shell?.snapshot == state.slices)
  #expect(shell?.store.state.undo == state.undo)
  #expect(shell?.tillName == "north")
  let linus = try #require(try await shell?.openTab(for: "Linus"))
  try await shell?.add(latte, to: linus)
  let goneOn = try #require(shell?.snapshot)
  shell = nil
  #expect(try KioskVerifier.replay(path: journal.path).state == goneOn)
  #expect(try journal.openStore().state.slices == goneOn)
}

/// The records of the day `runDay` plays, one payload a line, as
/// `Golden/day-v<version>.records` holds them: the bytes the kiosk's journal
/// has always held for that day (checked against `KioskShell`, which wrote them
/// before the till ran on the store). Re-record after an intended change of
/// format with `KIOSK_RECORD=1 make test`, and review the diff.
func expectGoldenDay(
  _ payloads: [[UInt8]], version: UInt16, named name: String = "day",
  normalized: (String) -> String = { $0 }, sourceLocation: SourceLocation = #_sourceLocation
) throws {
  let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Golden/\(name)-v\(version).records")
  let text = normalized(payloads.map { String(decoding: $0, as: UTF8.self) + "\n" }.joined())
  if ProcessInfo.processInfo.environment["KIOSK_RECORD"] == "1" {
    try Data(text.utf8).write(to: golden)
  }
  let expected = try String(contentsOf: golden, encoding: .utf8)
  #expect(text == expected, "the day's records differ from \(golden.lastPathComponent)", sourceLocation: sourceLocation)
}

@MainActor
@Test(arguments: [JournalFormat.encoderVersion, JournalFormat.canonicalVersion])
func theTillAndTheStoreJournalTheGoldenDaysBytes(version: UInt16) async throws {
  let byTill = try TemporaryJournal()
  var till: TillShell? = try await byTill.openTill(newFileVersion: version)
  try await runDay(on: try #require(till))
  till = nil

  let byStore = try TemporaryJournal()
  // A journal of the version, begun empty, as the till's was.
  _ = try DurableJournal(path: byStore.path, newFileVersion: version)
  var store: DurableStore<KioskTill>? = try byStore.openStore()
  try await runDay(on: try #require(store))
  store = nil

  let records = try byTill.recordPayloads()
  #expect(records.count == 11)
  #expect(try byStore.recordPayloads() == records)
  try expectGoldenDay(records, version: version)
}

@MainActor
@Test func aRecordThatDoesNotApplyRefusesTheDayWithItsNumber() async throws {
  let journal = try TemporaryJournal()
  do {
    var file = try DurableJournal(path: journal.path)
    try file.append(KioskRecord.initialized(menu: KioskDefaults.menu, stock: KioskDefaults.stock))
    try file.append(KioskRecord.opened(tab: Tab.ID(raw: 5), customer: "Ada"))
  }
  #expect {
    _ = try journal.openStore()
  } throws: { error in
    guard case DurableStoreError.replay(let sequence, let reason) = error else { return false }
    return sequence == 2 && reason.contains("the journal says #5")
  }
}

@MainActor
@Test func aDayClosedOnTheStoreChainsToTheNextAndTheTillGoesOnWithIt() async throws {
  let journal = try TemporaryJournal()
  var store: DurableStore<KioskTill>? = try journal.openStore()
  try await runDay(on: try #require(store))
  try store?.closeDay()
  let carried = try #require(store?.state)
  // A checkpoint later in the day names no day before: only the day's first does.
  try store?.send(.command(.openTab(customer: "Linus")))
  try store?.checkpoint()
  let goneOn = try #require(store?.state)
  store = nil
  let fromLastCheckpoint = try DurableJournal.read(path: journal.path)
  let last = try KioskCheckpoint.decoded(
    from: fromLastCheckpoint.payload(0), version: fromLastCheckpoint.version, decoder: JSONDecoder())
  #expect(last.day == 2 && last.previousDay == nil)

  // The day's archive ends with `dayClosed`; the next day begins from what
  // carries over and names it.
  let archivePath = KioskSegments.archivePath(of: journal.path, day: 1)
  let closed = try KioskVerifier.replay(path: archivePath)
  #expect(closed.closedDay == 1)
  let next = try KioskVerifier.replay(path: journal.path)
  #expect(next.day == 2)
  try KioskVerifier.checkChain(from: closed, to: next)
  #expect(carried.undo.isEmpty)

  let records = try lastSequence(journal.path)
  let shell = try await journal.openTill()
  #expect(try lastSequence(journal.path) == records, "the checkpoints vouch for the settled tabs")
  #expect(shell.day == 2)
  #expect(shell.snapshot == goneOn.slices)
  #expect(shell.tillName == "north")
}

/// One of the commands that move no money, drawn at random: valid or not
/// (an item or tab that is not there, a name the rules refuse, a count out of range).
private func randomCommand(_ random: inout SeededGenerator, nextTab: Int) -> KioskAction {
  let item = Item.ID(raw: Int.random(in: 0...6, using: &random))
  let tab = Tab.ID(raw: Int.random(in: 0...nextTab, using: &random))
  switch Int.random(in: 0..<10, using: &random) {
  case 0, 1: return .openTab(customer: Bool.random(using: &random) ? "Ada" : randomAwkwardText(&random))
  case 2, 3, 4: return .add(item: item, tab: tab)
  case 5, 6: return .remove(item: item, tab: tab)
  case 7:
    return .restock(
      ingredient: Ingredient.allCases.randomElement(using: &random)!, count: Int.random(in: -2...60, using: &random))
  default: return .undo(key: IdempotencyKey(journalSalt: 1, sequence: 1))
  }
}

/// Runs `command` through the till as `kiosk` runs it; whether it journaled a record.
@MainActor private func journaled(_ command: KioskAction, on shell: TillShell) async -> Bool {
  do {
    switch command {
    case .openTab(let customer): _ = try await shell.openTab(for: customer)
    case .add(let item, let tab): try await shell.add(item, to: tab)
    case .remove(let item, let tab): try await shell.remove(item, from: tab)
    case .restock(let ingredient, let count): try await shell.restock(ingredient, count: count)
    case .undo: return try await shell.undo() != nil
    case .settle: return false
    }
    return true
  } catch {
    return false
  }
}

@MainActor
@Test(arguments: [JournalFormat.encoderVersion, JournalFormat.canonicalVersion], [UInt64(1), 2, 3])
func randomCommandsDoTheSameThroughTheTillAndOnTheStore(version: UInt16, seed: UInt64) async throws {
  let byShell = try TemporaryJournal()
  let byStore = try TemporaryJournal()
  _ = try DurableJournal(path: byStore.path, newFileVersion: version)
  let shell = try await byShell.openTill(newFileVersion: version)
  let store = try byStore.openStore()
  try store.send(.initialize(menu: KioskDefaults.menu, stock: KioskDefaults.stock))
  var random = SeededGenerator(seed: seed)
  for step in 0..<80 {
    let command = randomCommand(&random, nextTab: shell.snapshot.tabs.nextID)
    let byTheShell = await journaled(command, on: shell)
    let byTheStore = try store.send(.command(command)).outcome.record != nil
    #expect(byTheShell == byTheStore, "step \(step): \(command)")
    #expect(shell.snapshot == store.state.slices, "step \(step): \(command)")
  }
  #expect(shell.store.state.undo == store.state.undo)
  let records = try byShell.recordPayloads()
  #expect(records.count > 25, "enough of the commands went through: \(records.count)")
  #expect(try byStore.recordPayloads() == records)
}

@MainActor
@Test func aDayOfFormat2WithAPriceInFractionsOfACentGoesOnAndItsNextDayStaysInFormat2() async throws {
  let journal = try TemporaryJournal()
  var menu = KioskDefaults.menu
  menu.items[latte]?.price = Decimal(string: "4.505")!
  do {
    // A day of format 2 as a till of an earlier release began it.
    var file = try DurableJournal(path: journal.path, newFileVersion: JournalFormat.encoderVersion)
    try file.append(KioskRecord.initialized(menu: menu, stock: KioskDefaults.stock))
    try file.append(KioskRecord.opened(tab: Tab.ID(raw: 1), customer: "Ada"))
  }
  let store = try journal.openStore()
  #expect(store.state.slices.menu.items[latte]?.price == Decimal(string: "4.505"))
  try store.closeDay()
  #expect(try DurableJournal.read(path: journal.path).version == JournalFormat.encoderVersion)
  // Where the canonical form cannot hold it, a new day cannot begin with it.
  let fresh = try TemporaryJournal()
  let outcome = try fresh.openStore().send(.initialize(menu: menu, stock: KioskDefaults.stock)).outcome
  #expect(outcome.record == nil && outcome.reason?.contains("cannot be journaled") == true)
}

@MainActor
@Test func aTillIsNamedOnTheStoreAsKioskNamesIt() async throws {
  let journal = try TemporaryJournal()
  let store = try journal.openStore()
  try store.send(.initialize(menu: KioskDefaults.menu, stock: KioskDefaults.stock))
  #expect(try store.send(.nameTill("north")).outcome.record == .tillNamed(till: "north"))
  #expect(try store.send(.nameTill("north")).outcome.record == nil, "the name it has journals nothing")
  #expect(try store.send(.nameTill("no such/till")).outcome.reason?.contains("no till's name") == true)

  let byShell = try TemporaryJournal()
  let shell = try await byShell.openTill()
  try await shell.nameTill("north")
  try await shell.nameTill("north")
  await #expect(throws: TillError.self) { try await shell.nameTill("no such/till") }
  #expect(try journal.recordPayloads() == byShell.recordPayloads())
}

@MainActor
@Test func aDayCloseAskedForAgainAfterACrashClosesNothingMore() async throws {
  let journal = try TemporaryJournal()
  var options = DurableStoreOptions()
  options.crashSeam = { (point: CrashPoint) throws(SimulatedCrash) in
    if point == .periodEnded { throw SimulatedCrash() }
  }
  var store: DurableStore<KioskTill>? = try DurableStore<KioskTill>.open(
    at: journal.path, initial: KioskTill.State(), environment: try journal.tillServices(), options: options)
  try store?.send(.initialize(menu: KioskDefaults.menu, stock: KioskDefaults.stock))
  try store?.send(.command(.openTab(customer: "Ada")))
  #expect(throws: DurableStoreError.stopped(at: .periodEnded)) { try store?.closeDay() }
  store = nil

  let reopened = try journal.openStore()
  #expect(reopened.period == 1, "opening finished the close")
  #expect(try reopened.closeDay() == 1, "the close asked for again is the one finished")
  #expect(reopened.period == 1)
  #expect(!FileManager.default.fileExists(atPath: KioskSegments.archivePath(of: journal.path, day: 2)))
  try reopened.send(.command(.openTab(customer: "Grace")))
  #expect(try reopened.closeDay() == 2, "once something was done, a close is a new one")
  #expect(FileManager.default.fileExists(atPath: KioskSegments.archivePath(of: journal.path, day: 2)))
}

/// Stops the store at the `stopAt`-th crash seam it reaches (0 for none).
private final class SeamCounter: Sendable {
  let reached = Mutex(0)
  let stopAt: Int
  init(stopAt: Int) { self.stopAt = stopAt }
  func seam(_ point: CrashPoint) throws(SimulatedCrash) {
    let count = reached.withLock {
      $0 += 1
      return $0
    }
    if count == stopAt { throw SimulatedCrash() }
  }
}

/// A store stopped at each of its seams in turn (records, checkpoints, the
/// day's close): the till, as `kiosk` opens it, then opens what the store
/// acknowledged, and the step it was taking only when that step's record was
/// synced, and goes on.
@MainActor
@Test func theTillOpensWhatTheStoreAcknowledgedWhereverTheStoreStopped() async throws {
  for stopAt in 1...40 {
    let journal = try TemporaryJournal()
    let counter = SeamCounter(stopAt: stopAt)
    var options = DurableStoreOptions(checkpointBytes: 150)
    options.crashSeam = { (point: CrashPoint) throws(SimulatedCrash) in try counter.seam(point) }
    var store: DurableStore<KioskTill>? = try DurableStore<KioskTill>.open(
      at: journal.path, initial: KioskTill.State(), environment: try journal.tillServices(), options: options)
    var acknowledged: KioskTill.State?
    var inFlight: KioskTill.State?
    do {
      try store?.send(.initialize(menu: KioskDefaults.menu, stock: KioskDefaults.stock))
      acknowledged = store?.state
      for customer in ["Ada", "Grace", "Linus"] {
        try store?.send(.command(.openTab(customer: customer)))
        acknowledged = store?.state
        try store?.send(.command(.add(item: latte, tab: try #require(store?.state.slices.tabs.open.keys.max()))))
        acknowledged = store?.state
      }
      try store?.closeDay()
      acknowledged = store?.state
      try store?.send(.command(.openTab(customer: "Edsger")))
      acknowledged = store?.state
    } catch {
      // The step in flight is in memory; its record may or may not be synced.
      inFlight = store?.state
    }
    store = nil
    if stopAt == 40 { #expect(inFlight == nil, "the last run reaches no 40th seam: every seam was stopped at") }
    guard let acknowledged = acknowledged ?? (inFlight?.initialized == true ? inFlight : nil) else {
      continue  // stopped before the day's first record: there is no day yet
    }
    let shell = try await journal.openTill()
    #expect(
      shell.snapshot == acknowledged.slices || shell.snapshot == inFlight?.slices,
      "stopped at seam \(stopAt): \(shell.snapshot.tabs.open.count) tabs")
    _ = try await shell.openTab(for: "Barbara")
  }
}

@MainActor
@Test func aStepThatDoesNothingLeavesTheStateAsItWas() async throws {
  let journal = try TemporaryJournal()
  let store = try journal.openStore()
  try await runDay(on: store)
  let before = store.state
  let misfits: [KioskTill.Action] = [
    .record(.opened(tab: Tab.ID(raw: 99), customer: "Ada")), .record(.added(item: latte, tab: Tab.ID(raw: 99))),
    .command(.add(item: Item.ID(raw: 42), tab: Tab.ID(raw: 1))), .command(.restock(ingredient: .milk, count: -1)),
    .command(.openTab(customer: "")), .initialize(menu: KioskDefaults.menu, stock: KioskDefaults.stock),
  ]
  for action in misfits {
    // A record is read back, never sent: the step is what replay runs.
    var state = store.state
    let outcome =
      if case .record = action { KioskTill.step(&state, action).outcome } else { try store.send(action).outcome }
    #expect(outcome.record == nil, "\(action)")
    #expect(state == before && store.state == before, "\(action) changed the state")
  }
}
