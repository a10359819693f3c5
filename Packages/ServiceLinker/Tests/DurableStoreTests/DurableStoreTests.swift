import CanonicalJSON
import DurableStore
import Foundation
import Journal
import Synchronization
import Testing
import VirtualTime
import _ServiceLinkerTestSupport

/// A store on a journal in a temporary folder, opened again as the next process would.
@MainActor
final class Till {
  let folder: TemporaryDirectory
  let cards = CardService()
  let clock = TestClock()
  var options = DurableStoreOptions()
  var path: String { folder.path("tea.journal") }

  init() throws { folder = try TemporaryDirectory(prefix: "durable") }

  func open() throws -> DurableStore<Tea> {
    try DurableStore<Tea>.open(
      at: path, initial: Tea.State(), environment: Tea.Environment(cards: cards, clock: clock), clock: clock,
      options: options)
  }

  /// Stops the store at the first `point` the seam reaches.
  func stop(at point: @escaping @Sendable (CrashPoint) -> Bool) {
    options.crashSeam = { (reached: CrashPoint) throws(SimulatedCrash) in
      if point(reached) { throw SimulatedCrash() }
    }
  }
}

extension Till {
  /// Moves the clock on half a second at a time while `store` has an intent
  /// open, for at most 100 seconds: attempts, deadlines and backoffs all run on it.
  func advanceWhileIntentsAreOpen<Model: DurableFeature>(in store: DurableStore<Model>?) async {
    var steps = 0
    while store?.openIntents.isEmpty == false && steps < 200 {
      await clock.advance(by: .milliseconds(500))
      steps += 1
    }
  }
}

/// Waits until one task sleeps on `clock`: the work a step started has reached its wait.
func waitForOneSleeper(on clock: TestClock) async {
  await waitUntil("one task sleeps on the clock") { clock.sleepers.count == 1 }
}

/// Tea as a later version of the app might give a charge up: feeding nothing back.
enum ForgivingTea: TeaVariant {
  static func abandoned(_ request: Request, reason: String) -> Action? { nil }
}

@MainActor @Suite struct DurableStoreTests {
  @Test func aStepSendReturnedIsThereWhenTheStoreOpensAgain() async throws {
    let till = try Till()
    var store: DurableStore<Tea>? = try till.open()
    try store?.send(.order("green"))
    await store?.finish()
    store = nil
    let reopened = try till.open()
    await reopened.finish()
    #expect(reopened.state == Tea.State(ordered: ["green"], charged: ["green"]))
    #expect(till.cards.charges == ["green"])
  }

  @Test func undoStepsAJournaledInverseThatSurvivesOpeningAgain() async throws {
    let till = try Till()
    var store: DurableStore<Tea>? = try till.open()
    try store?.send(.cancel("mint"))  // refused: nothing to undo
    try store?.send(.order("mint"))
    try store?.send(.order("earl grey"))
    #expect(store?.canUndo == true)
    try store?.undo()
    #expect(store?.state.ordered == ["mint"])
    await store?.finish()
    store = nil
    let reopened = try till.open()
    #expect(reopened.state.ordered == ["mint"])
    try reopened.undo()
    #expect(reopened.state.ordered == [])
    #expect(reopened.canUndo == false)
    #expect(try reopened.undo() == nil)
  }

  @Test func anIntentIsJournaledBeforeItsServiceIsCalledAndPerformedOnceAfterACrashThere() async throws {
    let till = try Till()
    till.stop { if case .beforePerform = $0 { true } else { false } }
    var store: DurableStore<Tea>? = try till.open()
    try store?.send(.order("oolong"))
    await store?.finish()
    #expect(store?.stoppedAt.map { "\($0)".hasPrefix("beforePerform") } == true)
    #expect(throws: DurableStoreError.self) { try store?.send(.order("sencha")) }
    store = nil
    #expect(till.cards.charges == [])
    let snapshot = try DurableStore<Tea>.read(at: till.path, initial: Tea.State())
    #expect(snapshot.openIntents.map(\.request) == [Tea.Request(charge: "oolong")])

    till.options.crashSeam = nil
    let reopened = try till.open()
    await reopened.finish()
    #expect(till.cards.charges == ["oolong"])
    #expect(reopened.state.charged == ["oolong"])
    #expect(reopened.openIntents.isEmpty)
  }

  @Test func aCrashAfterTheServiceAnsweredIsReconciledWithoutChargingAgain() async throws {
    let till = try Till()
    till.stop { if case .afterPerform = $0 { true } else { false } }
    var store: DurableStore<Tea>? = try till.open()
    try store?.send(.order("rooibos"))
    await store?.finish()
    store = nil
    #expect(till.cards.charges == ["rooibos"])

    till.options.crashSeam = nil
    let reopened = try till.open()
    await reopened.finish()
    #expect(till.cards.charges == ["rooibos"])
    #expect(reopened.state.charged == ["rooibos"])
  }

  /// Every crash point a send, a charge and a checkpoint pass through, in
  /// turn: after opening again, what was acknowledged is there once and
  /// every order is charged exactly once.
  @Test(arguments: [Tea.self, TextTea.self] as [any TeaVariant.Type])
  func aCrashAtEverySeamLosesNoAcknowledgedStepAndChargesOnce(in format: any TeaVariant.Type) async throws {
    try await crashAtEverySeam(format)
  }

  private func crashAtEverySeam<Variant: TeaVariant>(_ variant: Variant.Type) async throws {
    for stopAt in 0..<26 {
      let till = try Till()
      till.options.checkpointBytes = 1
      let reached = Mutex(0)
      till.options.crashSeam = { (_: CrashPoint) throws(SimulatedCrash) in
        let count = reached.withLock {
          $0 += 1
          return $0
        }
        if count == stopAt + 1 { throw SimulatedCrash() }
      }
      var store: DurableStore<Variant>? = try till.open(as: variant)
      var acknowledged: [String] = []
      for name in ["a", "b", "c"] {
        do {
          try store?.send(.order(name))
          acknowledged.append(name)
        } catch { break }
        await store?.finish()
      }
      store = nil
      till.options.crashSeam = nil
      let reopened = try till.open(as: variant)
      await reopened.finish()
      for name in acknowledged { #expect(reopened.state.ordered.filter { $0 == name }.count == 1, "stop \(stopAt)") }
      #expect(reopened.state.charged.sorted() == reopened.state.ordered.sorted(), "stop \(stopAt)")
      #expect(till.cards.charges.sorted() == reopened.state.ordered.sorted(), "stop \(stopAt): charged once each")
    }
  }

  @Test func aFailedChargeIsRetriedOnTheTestClockAfterAskingTheService() async throws {
    let till = try Till()
    till.cards.failNext(2)
    let store = try till.open()
    try store.send(.order("assam"))
    // Two failures, then backoffs of 1 s and 2 s on the test clock, each
    // followed by asking the card service before charging again.
    var steps = 0
    while !store.openIntents.isEmpty && steps < 100 {
      await till.clock.advance(by: .milliseconds(500))
      steps += 1
    }
    await store.finish()
    #expect(till.clock.elapsed >= .seconds(3))
    #expect(till.cards.charges == ["assam"])
    #expect(store.state.charged == ["assam"])
  }

  @Test func aChargeThatNeverAnswersIsGivenUpAtItsDeadlinesAndItsAbandonmentJournaled() async throws {
    let till = try Till()
    till.cards.hang(true)
    var store: DurableStore<Tea>? = try till.open()
    try store?.send(.order("pu-erh"))
    // Three attempts of 5 s, two backoffs of 1 s and 2 s: all on the test clock.
    await till.advanceWhileIntentsAreOpen(in: store)
    await store?.finish()
    #expect(till.clock.elapsed >= .seconds(18))
    #expect(store?.state.refunded == ["pu-erh"])
    #expect(store?.openIntents.isEmpty == true)
    store = nil
    // Reopened by a later Tea that gives a charge up feeding nothing back: the
    // refund is what the journal says was fed back, not what the code says now.
    let reopened = try till.open(as: ForgivingTea.self)
    #expect(reopened.state.refunded == ["pu-erh"])
    #expect(reopened.openIntents.isEmpty)
  }

  @Test func aChargeDeafToCancellationIsStillGivenUpAtItsDeadlines() async throws {
    let till = try Till()
    till.cards.deaf(true)
    var store: DurableStore<Tea>? = try till.open()
    try store?.send(.order("lapsang"))
    await till.advanceWhileIntentsAreOpen(in: store)
    #expect(store?.openIntents.isEmpty == true, "the store went on at each deadline")
    #expect(store?.state.refunded == ["lapsang"])
    till.cards.deaf(false)
    await store?.finish()
    #expect(till.cards.charges.isEmpty)
  }

  @Test func aLastAttemptWhoseAnswerWasLostIsAskedAboutBeforeItIsGivenUp() async throws {
    let till = try Till()
    till.cards.failNext(2)
    till.cards.loseAnswers(true)
    var store: DurableStore<Tea>? = try till.open()
    try store?.send(.order("hojicha"))
    await till.advanceWhileIntentsAreOpen(in: store)
    await store?.finish()
    #expect(till.cards.charges == ["hojicha"], "the third attempt went through; its answer never came")
    #expect(store?.state.charged == ["hojicha"])
    #expect(store?.state.refunded == [], "a charge that went through is not given up")
  }

  @Test func workFedBackIsJournaledAndTimersRunOnTheTestClock() async throws {
    let till = try Till()
    var store: DurableStore<Tea>? = try till.open()
    try store?.send(.brew("chai", seconds: 240))
    await waitForOneSleeper(on: till.clock)
    await till.clock.advance(by: .seconds(240))
    await store?.finish()
    #expect(store?.state.ordered == ["chai"])
    store = nil
    #expect(try DurableStore<Tea>.read(at: till.path, initial: Tea.State()).state.ordered == ["chai"])
  }

  @Test func checkpointsAreTakenBySizeAndOpeningStartsAtTheLast() async throws {
    let till = try Till()
    till.options.checkpointBytes = 400
    var store: DurableStore<Tea>? = try till.open()
    for index in 0..<40 { try store?.send(.charged("tip \(index)")) }
    try store?.send(.order("darjeeling"))
    await store?.finish()
    let state = store?.state
    store = nil
    let journal = try DurableJournal.read(path: till.path)
    #expect(journal.startedAtCheckpoint)
    #expect(journal.count < 20)
    let reopened = try till.open()
    #expect(reopened.state == state)
    try reopened.undo()
    #expect(reopened.state.ordered == [])
  }

  @Test func aClosedPeriodIsAReadOnlyArchiveAndTheNextGoesOnFromItsState() async throws {
    let till = try Till()
    var store: DurableStore<Tea>? = try till.open()
    try store?.send(.order("sencha"))
    await store?.finish()
    try store?.closePeriod(into: till.folder.path("day-1.journal"))
    #expect(throws: DurableStoreError.archiveExists(path: till.folder.path("day-1.journal"))) {
      try store?.closePeriod(into: till.folder.path("day-1.journal"))
    }
    try store?.send(.order("genmaicha"))
    await store?.finish()
    #expect(store?.period == 1)
    store = nil

    let archive = try DurableStore<Tea>.read(at: till.folder.path("day-1.journal"), initial: Tea.State())
    #expect(archive.state.ordered == ["sencha"])
    #expect(archive.period == 0)
    let mode = try FileManager.default.attributesOfItem(atPath: till.folder.path("day-1.journal"))[.posixPermissions]
    #expect(mode as? Int == 0o444)
    let reopened = try till.open()
    #expect(reopened.state.ordered == ["sencha", "genmaicha"])
    #expect(reopened.period == 1)
  }

  @Test(arguments: [CrashPoint.periodEnded, .periodNextWritten, .periodArchived])
  func aPeriodCloseCutShortAfterItsEndIsFinishedOnOpening(_ point: CrashPoint) async throws {
    let till = try Till()
    till.stop { $0 == point }
    var store: DurableStore<Tea>? = try till.open()
    try store?.send(.order("kukicha"))
    await store?.finish()
    #expect(throws: DurableStoreError.stopped(at: point)) {
      try store?.closePeriod(into: till.folder.path("day-1.journal"))
    }
    store = nil
    till.options.crashSeam = nil
    let reopened = try till.open()
    #expect(reopened.state.ordered == ["kukicha"])
    #expect(reopened.period == 1)
    #expect(reopened.previousPeriod?.archive == till.folder.path("day-1.journal"))
    #expect(!FileManager.default.fileExists(atPath: till.path + ".next"))
    let archive = try DurableStore<Tea>.read(at: till.folder.path("day-1.journal"), initial: Tea.State())
    #expect(archive.state.ordered == ["kukicha"])
    #expect(archive.ended == reopened.previousPeriod)
    let mode = try FileManager.default.attributesOfItem(atPath: till.folder.path("day-1.journal"))[.posixPermissions]
    #expect(mode as? Int == 0o444)
  }

  @Test func aReaderTakesNoLockBesideARunningStore() async throws {
    let till = try Till()
    let store = try till.open()
    try store.send(.order("bancha"))
    await store.finish()
    let snapshot = try DurableStore<Tea>.read(at: till.path, initial: Tea.State())
    #expect(snapshot.state == store.state)
    #expect(throws: DurableStoreError.self) {
      var options = DurableStoreOptions()
      options.lockWait = .milliseconds(50)
      _ = try DurableStore<Tea>.open(
        at: till.path, initial: Tea.State(), environment: Tea.Environment(cards: till.cards, clock: till.clock),
        options: options)
    }
  }

  @Test func everyRecordIsItsOwnCanonicalTextWhateverMadeTheStep() async throws {
    let till = try Till()
    var store: DurableStore<Tea>? = try till.open()
    try await till.stepEveryKind(on: store, givenUp: "pu-erh \"strong\"\n")
    store = nil
    let journal = try DurableJournal.read(path: till.path)
    var kinds: [String] = []
    for index in 0..<journal.count where !journal.isCheckpoint(index) {
      let payload = Array(journal.payload(index))
      let value = try JSONValue.parse(payload)
      #expect(value.compactBytes == payload, "\(String(decoding: payload, as: UTF8.self))")
      guard case .object(let members) = value, case .string(let kind) = members["kind"] else { continue }
      if kind == "outcome", case .string = members["abandoned"] {
        kinds.append("abandoned")
      } else {
        kinds.append(kind)
      }
    }
    #expect(Set(kinds) == ["send", "outcome", "fed", "undo", "abandoned"], "\(kinds)")
  }
  /// The store writes each record into the buffer the one before it used:
  /// a shorter record after a longer one, or after one too big to keep,
  /// holds only its own bytes.
  @Test func eachRecordHoldsOnlyItsOwnBytesWhateverCameBefore() async throws {
    let till = try Till()
    var store: DurableStore<Tea>? = try till.open()
    let names = [String(repeating: "assam ", count: 60), "sencha", String(repeating: "x", count: 70_000), "oolong"]
    let actions = names.map { Tea.Action.brew($0, seconds: 60) }
    for action in actions { try store?.send(action) }
    store = nil
    let journal = try DurableJournal.read(path: till.path)
    let payloads = (0..<journal.count).filter { !journal.isCheckpoint($0) }.map { Array(journal.payload($0)) }
    let expected = actions.map { action in
      var fresh: [UInt8] = []
      CanonicalDurableFormat<Tea>.writeRecord(
        .sent, action, [], result: nil, version: JournalFormat.canonicalVersion, to: &fresh)
      return fresh
    }
    #expect(payloads == expected)
    #expect(try JSONValue.parse(payloads[1]).compactBytes == payloads[1])
  }
}
