import DurableStore
import Journal
import Testing
import VirtualTime

/// The undo of an order is a cancel and of a cancel an order, whatever the
/// state: a refused step's inverse is not nil, so keeping it would show.
private func blindInverse(of action: Tea.Action) -> Tea.Action? {
  switch action {
  case .order(let name): .cancel(name)
  case .cancel(let name): .order(name)
  default: nil
  }
}

/// Tea with `blindInverse`, refusing as Tea does.
enum StrictTea: TeaVariant {
  static func inverse(of action: Action, before: State) -> Action? { blindInverse(of: action) }
}

/// `StrictTea` as a store kept it before refusals were left out: every step
/// journaled, a refused one's inverse on the undo stack.
enum EagerTea: TeaVariant {
  static func isRefusal(_ outcome: Outcome) -> Bool { false }
  static func inverse(of action: Action, before: State) -> Action? { blindInverse(of: action) }
}

/// Tea that holds a journal to what it does now: a step read back that it
/// refuses does not replay (`replayFailure`).
enum ExactingTea: TeaVariant {
  static func replayFailure(_ outcome: Outcome) -> String? { outcome.refused.map { "refused now: \($0)" } }
}

/// A step the feature refuses (`isRefusal`) is answered and leaves nothing:
/// no record, no intent, no work, no undo.
@MainActor @Suite struct RefusalTests {
  /// The records of the journal at `path` that are not checkpoints.
  private func recordCount(at path: String) throws -> Int {
    let journal = try DurableJournal.read(path: path)
    return (0..<journal.count).count { !journal.isCheckpoint($0) }
  }

  @Test func aRefusedSendIsAnsweredAndLeavesNoRecordIntentOrUndo() async throws {
    let till = try Till()
    var store: DurableStore<StrictTea>? = try till.open(as: StrictTea.self)
    var steps = 0
    store?.onStep = { _ in steps += 1 }
    try store?.send(.order("green"))
    await store?.finish()
    let records = try recordCount(at: till.path)
    #expect(records == 2, "the order and its charge's outcome")
    let twice = try store?.send(.order("green"))
    let none = try store?.send(.cancel("oolong"))
    #expect(twice?.outcome.refused == "twice")
    #expect(none?.outcome.refused == "none")
    await store?.finish()
    #expect(try recordCount(at: till.path) == records)
    #expect(steps == 2, "onStep heard the order and its outcome, not the refusals")
    #expect(till.cards.charges == ["green"], "the refused order asked for no charge")
    #expect(store?.openIntents.isEmpty == true)
    // The undo stack holds the order's inverse, not a refused step's (an order of oolong).
    try store?.undo()
    #expect(store?.state.ordered == [])
    #expect(store?.canUndo == false)
    store = nil
    let reopened = try till.open(as: StrictTea.self)
    await reopened.finish()
    #expect(reopened.state == Tea.State(ordered: [], charged: ["green"]))
  }

  @Test func aRefusedStepFedBackLeavesNoRecord() async throws {
    let till = try Till()
    var store: DurableStore<Tea>? = try till.open()
    try store?.send(.order("chai"))
    await store?.finish()
    // The brew feeds `.order("chai")` back after a minute: an order twice, refused.
    try store?.send(.brew("chai", seconds: 60))
    let records = try recordCount(at: till.path)
    await waitForOneSleeper(on: till.clock)
    await till.clock.advance(by: .seconds(60))
    await store?.finish()
    #expect(store?.inFlight == [])
    #expect(try recordCount(at: till.path) == records, "nothing was journaled for the refused order")
    #expect(till.cards.charges == ["chai"])
    #expect(store?.lastError == nil)
    store = nil
    #expect(try DurableStore<Tea>.read(at: till.path, initial: Tea.State()).state.ordered == ["chai"])
  }

  @Test func aJournalWrittenBeforeRefusalsWereLeftOutOpensAsItsStoreLeftIt() async throws {
    let till = try Till()
    var eager: DurableStore<EagerTea>? = try till.open(as: EagerTea.self)
    try eager?.send(.cancel("oolong"))  // refused, journaled as before, its inverse (an order) kept
    try eager?.undo()  // steps that order: oolong is ordered and charged
    await eager?.finish()
    let before = try #require(eager?.state)
    eager = nil
    let strict = try till.open(as: StrictTea.self)
    await strict.finish()
    #expect(strict.state == before)
    #expect(strict.state.ordered == ["oolong"])
    #expect(till.cards.charges == ["oolong"], "charged once")
  }

  @Test func aStepTheFeatureSaysDoesNotReplayRefusesTheJournalWithItsNumber() async throws {
    let till = try Till()
    var eager: DurableStore<EagerTea>? = try till.open(as: EagerTea.self)
    try eager?.send(.charged("sencha"))
    try eager?.send(.cancel("oolong"))  // refused, and journaled as record 2
    eager = nil
    let refusal = DurableStoreError.replay(sequence: 2, reason: "refused now: none")
    #expect(throws: refusal) { _ = try till.open(as: ExactingTea.self) }
    #expect(throws: refusal) { _ = try DurableStore<ExactingTea>.read(at: till.path, initial: Tea.State()) }
    #expect(try till.open(as: StrictTea.self).state.charged == ["sencha"], "by default it replays")
  }

  @Test func refusalsSpendNoSequenceNumber() async throws {
    let till = try Till()
    let store = try till.open()
    try store.send(.cancel("nothing yet"))
    try store.send(.charged("tip"))
    let snapshot = try DurableStore<Tea>.read(at: till.path, initial: Tea.State())
    #expect(snapshot.lastSequence == 1, "the first record is the tip's")
    #expect(snapshot.state.charged == ["tip"])
  }
}
