import DurableStore
import FeatureKit
import Journal
import Testing
import VirtualTime
import _ServiceLinkerTestSupport

/// Tea whose charges its card service never got before a crash are given
/// up on opening, not made then (a till whose customer may have left).
enum StayingTea: TeaVariant {
  static var effectPolicy: EffectPolicy {
    var policy = Tea.effectPolicy
    policy.performAfterRestart = false
    return policy
  }
}

/// Tea journaled in text whose given-up outcomes keep their key and reason
/// only, as the kiosk's `paymentAbandoned` does: replay feeds back what
/// `abandoned` says again.
enum TerseTea: TeaVariant {
  typealias Format = TerseTeaFormat
}

/// `TeaTextFormat` with no action in a given-up outcome's record.
enum TerseTeaFormat: DurableFormat {
  typealias Model = TerseTea
  private typealias Text = TeaTextFormat<TerseTea>

  static var versions: ClosedRange<UInt16> { Text.versions }

  static func writeRecord(
    _ kind: DurableStepKind, _ action: Tea.Action?, _ intents: [Intent<Tea.Request>],
    result: StepResult<Tea.Effect, Tea.Outcome>?, version: UInt16, to out: inout [UInt8]
  ) {
    var kept = action
    if case .outcome(_, _?) = kind { kept = nil }
    Text.writeRecord(kind, kept, intents, result: result, version: version, to: &out)
  }

  static func readRecord(_ payload: ArraySlice<UInt8>, version: UInt16) throws -> DurableRecord<TerseTea> {
    try Text.readRecord(payload, version: version)
  }

  static func writeCheckpoint(_ checkpoint: DurableCheckpoint<TerseTea>, version: UInt16) -> [UInt8] {
    Text.writeCheckpoint(checkpoint, version: version)
  }

  static func readCheckpoint(_ payload: ArraySlice<UInt8>, version: UInt16) throws -> DurableCheckpoint<TerseTea> {
    try Text.readCheckpoint(payload, version: version)
  }
}

@MainActor @Suite struct IntentOutcomeTests {
  @Test func outcomeOfAnIntentWaitsForItAndSaysHowItClosed() async throws {
    let till = try Till()
    let store = try till.open()
    try store.send(.order("green"))
    let charged = try #require(store.openIntents.last?.key)
    let closed = try #require(await store.outcome(of: charged))
    #expect(closed.abandoned == nil)
    #expect(closed.outcome != nil, "the charge fed its answer back")
    #expect(await store.outcome(of: charged) == nil, "closed already: nothing to wait for")

    till.cards.hang(true)
    try store.send(.order("lapsang"))
    let hanging = try #require(store.openIntents.last?.key)
    async let givenUp = store.outcome(of: hanging)
    await till.advanceWhileIntentsAreOpen(in: store)
    let abandoned = try #require(await givenUp)
    #expect(abandoned.abandoned?.isEmpty == false)
    #expect(store.state.refunded == ["lapsang"], "its abandonment was stepped")
    #expect(await store.outcome(of: IntentKey(text: "no-such-key")) == nil)
  }

  @Test func anIntentLeftOpenByAStopHasNoOutcomeToWaitFor() async throws {
    let till = try Till()
    till.stop { if case .afterPerform = $0 { true } else { false } }
    let store = try till.open()
    try store.send(.order("green"))
    let key = try #require(store.openIntents.last?.key)
    #expect(await store.outcome(of: key) == nil)
    #expect(store.openIntents.map(\.key) == [key], "the intent stays open for the next open to ask about")
  }

  @Test(arguments: [false, true])
  func aRequestItsServiceNeverGotIsGivenUpOnOpenUnlessThePolicyPerformsItThen(performs: Bool) async throws {
    let till = try Till()
    till.stop { if case .beforePerform = $0 { true } else { false } }
    var store: DurableStore<StayingTea>? = try till.open(as: StayingTea.self)
    try store?.send(.order("green"))
    await store?.finish()
    #expect(store?.openIntents.count == 1)
    store = nil
    till.options.crashSeam = nil

    if performs {
      let reopened = try till.open()
      await till.advanceWhileIntentsAreOpen(in: reopened)
      await reopened.finish()
      #expect(till.cards.attempts == 1, "Tea's policy makes the charge after the restart")
      #expect(reopened.state.refunded.isEmpty)
    } else {
      let reopened = try till.open(as: StayingTea.self)
      await till.advanceWhileIntentsAreOpen(in: reopened)
      await reopened.finish()
      #expect(till.cards.attempts == 0, "never made: the service was asked, and nothing moved")
      #expect(till.cards.questions == 1)
      #expect(reopened.state.refunded == ["green"], "given up, its abandonment stepped")
      #expect(reopened.openIntents.isEmpty)
    }
  }

  @Test func aGivenUpOutcomeWhoseRecordKeepsNoActionIsFedBackAgainOnReplay() async throws {
    let till = try Till()
    var store: DurableStore<TerseTea>? = try till.open(as: TerseTea.self)
    try await till.stepEveryKind(on: store, givenUp: "lapsang")
    let state = try #require(store?.state)
    #expect(state.refunded == ["lapsang"])
    store = nil
    let reopened = try till.open(as: TerseTea.self)
    #expect(reopened.state == state)
  }

  @Test func aPeriodDoesNotCloseWhileARequestIsInFlight() async throws {
    let till = try Till()
    let store = try till.open()
    till.cards.hang(true)
    try store.send(.order("green"))
    let key = try #require(store.openIntents.first?.key)
    let archive = till.folder.path("tea.journal.period-1")
    #expect(throws: DurableStoreError.intentsOpen(keys: [key])) { try store.closePeriod(into: archive) }
    #expect(store.period == 0)
    await till.advanceWhileIntentsAreOpen(in: store)
    await store.finish()
    try store.closePeriod(into: archive)
    #expect(store.period == 1)
  }

  @Test func aStoreLetGoCancelsItsRequestsAndTheirIntentsStayOpen() async throws {
    let till = try Till()
    till.cards.hang(true)
    var store: DurableStore<Tea>? = try till.open()
    try store?.send(.order("green"))
    await waitForOneSleeper(on: till.clock)
    let attempts = till.cards.attempts
    store = nil
    // Were the request still running, its retries would wait on the clock and try again.
    for _ in 0..<20 { await till.clock.advance(by: .seconds(5)) }
    #expect(till.cards.attempts == attempts, "no attempt after the store was let go")
    till.cards.hang(false)
    let reopened = try till.open()
    #expect(reopened.openIntents.count == 1, "the intent stays open for the next open to ask about")
    await till.advanceWhileIntentsAreOpen(in: reopened)
    await reopened.finish()
    #expect(reopened.openIntents.isEmpty)
  }
}
