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

// The till on the framework's durable store (`KioskTill`, `KioskTillFormat`)
// and the shell on the same journal: each opens a day the other wrote, as the
// other left it, and goes on with it; the store writes the shell's bytes.

extension TemporaryJournal {
  /// The till on this journal through the framework's store, its processor
  /// the ledger the shell uses beside the journal.
  @MainActor func openStore(
    checkpointBytes: Int = 1 << 20, fault: ProcessorFault? = nil,
    seam: (@Sendable (CrashPoint) throws(SimulatedCrash) -> Void)? = nil
  ) throws -> DurableStore<KioskTill> {
    var options = DurableStoreOptions(checkpointBytes: checkpointBytes)
    options.crashSeam = seam
    return try DurableStore<KioskTill>.open(
      at: path, initial: KioskTill.State(), environment: try tillServices(fault: fault), options: options)
  }

  /// The store's services: the processor's ledger beside the journal, the system clock.
  func tillServices(fault: ProcessorFault? = nil) throws -> KioskTill.Services {
    KioskTill.Services(
      processor: try SharedProcessor(path: LocalProcessor.defaultPath(besideJournal: path), fault: fault))
  }

  /// The payloads of the journal's records, in a journal with no checkpoint.
  func recordPayloads() throws -> [[UInt8]] {
    let recovery = try DurableJournal.read(path: path)
    #expect(recovery.lastCheckpoint == nil, "a reader starts at the last checkpoint")
    return (0..<recovery.count).map { Array(recovery.payload($0)) }
  }
}

/// The day every test here runs: tabs opened, items added and taken off, a
/// delivery, an undo, the till named; no money moves.
@MainActor private func runDay(
  open: (String) throws -> Tab.ID, add: (Item.ID, Tab.ID) throws -> Void, remove: (Item.ID, Tab.ID) throws -> Void,
  restock: (Ingredient, Int) throws -> Void, undo: () async throws -> Void, name: (String) throws -> Void
) async throws {
  let ada = try open("Ada")
  try add(latte, ada)
  try add(espresso, ada)
  try remove(latte, ada)
  let grace = try open("Grace Hopper")
  try add(latte, grace)
  try restock(.milk, 6)
  try await undo()
  try name("north")
  try add(espresso, grace)
}

@MainActor private func runDay(on shell: KioskShell) async throws {
  try await runDay(
    open: { try shell.openTab(for: $0) }, add: { try shell.add($0, to: $1) },
    remove: { try shell.remove($0, from: $1) }, restock: { try shell.restock($0, count: $1) },
    undo: { _ = try await shell.undo() }, name: { try shell.nameTill($0) })
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
func aDayTheShellWroteOpensOnTheStoreAsTheShellLeftIt(version: UInt16) async throws {
  let journal = try TemporaryJournal()
  var shell: KioskShell? = try journal.openShell(newFileVersion: version)
  shell?.checkpointInterval = 4
  try await runDay(on: try #require(shell))
  let (snapshot, undo, till) = (shell!.snapshot, shell!.history.entries, shell!.tillName)
  shell = nil

  let store = try journal.openStore()
  #expect(store.state.slices == snapshot)
  #expect(store.state.undo == undo)
  #expect(store.state.till == till)
  #expect(try DurableStore<KioskTill>.read(at: journal.path, initial: KioskTill.State()).state == store.state)
}

@MainActor
@Test(arguments: [JournalFormat.encoderVersion, JournalFormat.canonicalVersion])
func aDayTheStoreGoesOnWithOpensInTheShellAndGoesOnThere(version: UInt16) async throws {
  let journal = try TemporaryJournal()
  var shell: KioskShell? = try journal.openShell(newFileVersion: version)
  _ = try shell?.openTab(for: "Ada")
  shell = nil

  // The store continues a day the shell began, in its version, checkpoints included.
  var store: DurableStore<KioskTill>? = try journal.openStore(checkpointBytes: 200)
  try await runDay(on: try #require(store))
  let state = try #require(store?.state)
  store = nil
  #expect(try DurableJournal.read(path: journal.path).version == version)

  shell = try journal.openShell(newFileVersion: version)
  #expect(shell?.rebuiltSettledTabs == false)
  #expect(shell?.snapshot == state.slices)
  #expect(shell?.history.entries == state.undo)
  #expect(shell?.tillName == "north")
  let linus = try #require(try shell?.openTab(for: "Linus"))
  try shell?.add(latte, to: linus)
  let goneOn = try #require(shell?.snapshot)
  shell = nil
  #expect(try KioskVerifier.replay(path: journal.path).state == goneOn)
  #expect(try journal.openStore().state.slices == goneOn)
}

@MainActor
@Test(arguments: [JournalFormat.encoderVersion, JournalFormat.canonicalVersion])
func theStoreJournalsTheBytesTheShellJournals(version: UInt16) async throws {
  let byShell = try TemporaryJournal()
  var shell: KioskShell? = try byShell.openShell(newFileVersion: version)
  try await runDay(on: try #require(shell))
  shell = nil

  let byStore = try TemporaryJournal()
  // A journal of the version, begun empty, as the shell's was.
  _ = try DurableJournal(path: byStore.path, newFileVersion: version)
  var store: DurableStore<KioskTill>? = try byStore.openStore()
  try await runDay(on: try #require(store))
  store = nil

  let shellRecords = try byShell.recordPayloads()
  #expect(shellRecords.count == 11)
  #expect(try byStore.recordPayloads() == shellRecords)
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
@Test func aDayClosedOnTheStoreChainsToTheNextAsTheShellsDays() async throws {
  let journal = try TemporaryJournal()
  var store: DurableStore<KioskTill>? = try journal.openStore()
  try await runDay(on: try #require(store))
  try store?.closeDay()
  let carried = try #require(store?.state)
  // A checkpoint later in the day names no day before: only the day's first does, as the shell's.
  try store?.send(.command(.openTab(customer: "Linus")))
  try store?.checkpoint()
  let goneOn = try #require(store?.state)
  store = nil
  let fromLastCheckpoint = try DurableJournal.read(path: journal.path)
  let last = try KioskCheckpoint.decoded(
    from: fromLastCheckpoint.payload(0), version: fromLastCheckpoint.version, decoder: JSONDecoder())
  #expect(last.day == 2 && last.previousDay == nil)

  // The day's archive ends with `dayClosed`; the next day begins from what
  // carries over and names it, as a day the shell closed does.
  let archivePath = KioskSegments.archivePath(of: journal.path, day: 1)
  let closed = try KioskVerifier.replay(path: archivePath)
  #expect(closed.closedDay == 1)
  let next = try KioskVerifier.replay(path: journal.path)
  #expect(next.day == 2)
  try KioskVerifier.checkChain(from: closed, to: next)
  #expect(carried.undo.isEmpty)

  let shell = try journal.openShell()
  #expect(!shell.rebuiltSettledTabs, "the store's checkpoints vouch for the day's settled tabs, as the shell's do")
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

/// Runs `command` on the shell; whether it journaled a record.
@MainActor private func journaled(_ command: KioskAction, on shell: KioskShell) async -> Bool {
  do {
    switch command {
    case .openTab(let customer): _ = try shell.openTab(for: customer)
    case .add(let item, let tab): try shell.add(item, to: tab)
    case .remove(let item, let tab): try shell.remove(item, from: tab)
    case .restock(let ingredient, let count): try shell.restock(ingredient, count: count)
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
func randomCommandsDoTheSameOnTheShellAndOnTheStore(version: UInt16, seed: UInt64) async throws {
  let byShell = try TemporaryJournal()
  let byStore = try TemporaryJournal()
  _ = try DurableJournal(path: byStore.path, newFileVersion: version)
  let shell = try byShell.openShell(newFileVersion: version)
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
  #expect(shell.history.entries == store.state.undo)
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
    let file = try DurableJournal(path: journal.path, newFileVersion: JournalFormat.encoderVersion)
    let processor = try LocalProcessor(path: LocalProcessor.defaultPath(besideJournal: journal.path))
    let shell = try KioskShell(journal: file, processor: processor, menu: menu)
    _ = try shell.openTab(for: "Ada")
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
@Test func aTillIsNamedAsTheShellNamesIt() async throws {
  let journal = try TemporaryJournal()
  let store = try journal.openStore()
  try store.send(.initialize(menu: KioskDefaults.menu, stock: KioskDefaults.stock))
  #expect(try store.send(.nameTill("north")).outcome.record == .tillNamed(till: "north"))
  #expect(try store.send(.nameTill("north")).outcome.record == nil, "the name it has journals nothing")
  #expect(try store.send(.nameTill("no such/till")).outcome.reason?.contains("no till's name") == true)

  let byShell = try TemporaryJournal()
  let shell = try byShell.openShell()
  try shell.nameTill("north")
  try shell.nameTill("north")
  #expect(throws: KioskShellError.self) { try shell.nameTill("no such/till") }
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
/// day's close): the shell then opens what the store acknowledged, and the
/// step it was taking only when that step's record was synced, and goes on.
@MainActor
@Test func theShellOpensWhatTheStoreAcknowledgedWhereverTheStoreStopped() async throws {
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
    let shell = try journal.openShell()
    #expect(
      shell.snapshot == acknowledged.slices || shell.snapshot == inFlight?.slices,
      "stopped at seam \(stopAt): \(shell.snapshot.tabs.open.count) tabs")
    _ = try shell.openTab(for: "Barbara")
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
