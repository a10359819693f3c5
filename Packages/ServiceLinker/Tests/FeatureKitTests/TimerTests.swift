import CanonicalJSON
import FeatureTesting
import Testing
import VirtualTime
@testable import FeatureKit

/// Alarms that ring after a delay: each one a timer (`EffectTask.after`), so
/// a store waits for all of them with one task.
enum Alarms: FeatureModel {
  struct State: Codable, Equatable, Sendable, CanonicalCodable {
    var rung: [String] = []
  }

  enum Action: Codable, Equatable, Sendable, CanonicalCodable {
    case set(String, seconds: Int)
    case cancel(String)
    case rang(String)
  }

  struct Effect: Codable, Equatable, Sendable, CanonicalEncodable {}
  struct Outcome: Codable, Equatable, Sendable, CanonicalEncodable {}

  struct Environment: Sendable {
    var clock: any Clock<Duration>
  }

  static func name(of action: Action) -> String {
    switch action {
    case .set: "set"
    case .cancel: "cancel"
    case .rang: "rang"
    }
  }

  static func step(_ state: inout State, _ action: Action) -> StepResult<Effect, Outcome> {
    if case .rang(let name) = action { state.rung.append(name) }
    return StepResult(effects: [], outcome: Outcome())
  }

  static func tasks(
    after action: Action, state: State, result: StepResult<Effect, Outcome>, environment: Environment
  ) -> [EffectTask<Action>] {
    switch action {
    case .set(let name, let seconds): [.after(.seconds(seconds), on: environment.clock, id: name, send: .rang(name))]
    case .cancel(let name): [EffectTask(id: name) { nil }]
    case .rang: []
    }
  }
}

/// A clock with state of its own in a value: two of its values may keep
/// different time, so its timers cannot share a queue.
struct LaggingClock: Clock {
  let base: TestClock
  var now: TestClock.Instant { base.now }
  var minimumResolution: Duration { .zero }
  func sleep(until deadline: TestClock.Instant, tolerance: Duration?) async throws {
    try await base.sleep(until: deadline, tolerance: tolerance)
  }
}

@MainActor @Suite struct TimerTests {
  /// A store of alarms on `clock`. On a test clock, each `advance` waits
  /// until the store's tasks are asleep again before it wakes the next
  /// sleeper (the shared task must be back asleep for the next timer to wake).
  func alarms(on clock: any Clock<Duration>) -> Store<Alarms> {
    let store = Store<Alarms>(state: .init(), environment: .init(clock: clock))
    if let clock = clock as? TestClock {
      clock.settle = { [weak store] in await store?.settle { Set(clock.sleepers.map(\.label)) } }
    }
    return store
  }

  /// Lets the store's tasks reach their sleep.
  func settle(_ store: Store<Alarms>, _ clock: TestClock) async {
    await store.settle { Set(clock.sleepers.map(\.label)) }
  }

  @Test func timersOnOneClockShareOneSleepingTaskAndRingSoonestFirst() async {
    let clock = TestClock()
    let store = alarms(on: clock)
    store.send(.set("tea", seconds: 30))
    store.send(.set("eggs", seconds: 10))
    store.send(.set("bread", seconds: 20))
    await settle(store, clock)
    #expect(clock.sleepers.map(\.label) == ["timers"], "one task sleeps for the three")
    #expect(clock.sleepers.map(\.deadline) == [TestClock.Instant(offset: .seconds(10))])
    #expect(store.inFlight == ["bread", "eggs", "tea"])
    await clock.advance(by: .seconds(15))
    #expect(store.state.rung == ["eggs"])
    await settle(store, clock)
    #expect(clock.sleepers.map(\.deadline) == [TestClock.Instant(offset: .seconds(20))], "the same task sleeps again")
    await clock.advance(by: .seconds(15))
    #expect(store.state.rung == ["eggs", "bread", "tea"])
    #expect(store.inFlight.isEmpty)
    #expect(clock.sleepers.isEmpty)
  }

  @Test func timersDueAtOneInstantRingInTheOrderTheyWereSet() async {
    let clock = TestClock()
    let store = alarms(on: clock)
    for name in ["c", "a", "b"] { store.send(.set(name, seconds: 5)) }
    await settle(store, clock)
    await clock.advance(by: .seconds(5))
    #expect(store.state.rung == ["c", "a", "b"])
  }

  @Test func aTimerReplacedOrCancelledUnderItsIdNeverRings() async {
    let clock = TestClock()
    let store = alarms(on: clock)
    store.send(.set("tea", seconds: 10))
    store.send(.set("tea", seconds: 20))
    store.send(.set("eggs", seconds: 5))
    store.send(.cancel("eggs"))
    await settle(store, clock)
    #expect(store.inFlight == ["tea"])
    await clock.advance(by: .seconds(10))
    #expect(store.state.rung.isEmpty, "the replaced timer was due at ten seconds")
    await clock.advance(by: .seconds(10))
    #expect(store.state.rung == ["tea"])
    await store.finish()
    #expect(store.inFlight.isEmpty)
  }

  @Test func aTimerSetAgainAndAgainRingsOnceAndLeavesNoDeadOnesWaiting() async {
    let clock = TestClock()
    let store = alarms(on: clock)
    for seconds in 1...500 { store.send(.set("tea", seconds: seconds)) }
    await settle(store, clock)
    #expect(store.inFlight == ["tea"])
    await clock.advance(by: .seconds(499))
    #expect(store.state.rung.isEmpty)
    await clock.advance(by: .seconds(1))
    #expect(store.state.rung == ["tea"])
    #expect(clock.sleepers.isEmpty)
  }

  @Test func timersReplacedAgainAndAgainLeaveAHeapAboutTheSizeOfTheLiveOnes() {
    let clock = TestClock()
    var work = WorkInFlight<Alarms.Action>()
    work.deliver = { _, _, _ in }
    // The heartbeat stays the soonest, so replacing "idle" never rearms the waiting task.
    work.start(.after(.seconds(1), on: clock, id: "heartbeat", send: .rang("heartbeat")))
    for _ in 0..<10_000 {
      work.start(.after(.seconds(3_600), on: clock, id: "idle", send: .rang("idle")))
    }
    #expect(work.ids == ["heartbeat", "idle"])
    #expect((work.timers?.heapCount ?? .max) <= 2 * 2 + 64)
    _ = work.cancelAll()
  }

  @Test func aStoreDroppedWithATimerPendingLeavesNothingAsleep() async {
    let clock = TestClock()
    var store: Store<Alarms>? = alarms(on: clock)
    store?.send(.set("tea", seconds: 60))
    if let store { await settle(store, clock) }
    #expect(clock.sleepers.map(\.label) == ["timers"])
    store = nil
    var yields = 0
    while !clock.sleepers.isEmpty && yields < 100_000 {
      await Task.yield()
      yields += 1
    }
    #expect(clock.sleepers.isEmpty)
  }

  @Test func aThousandPendingTimersAreOneSleepingTask() async {
    let clock = TestClock()
    let store = alarms(on: clock)
    for index in 0..<1_000 { store.send(.set("alarm \(index)", seconds: 1_000 - index)) }
    await settle(store, clock)
    #expect(clock.sleepers.count == 1)
    #expect(store.inFlight.count == 1_000)
    await clock.advance(by: .seconds(1_000))
    await store.finish()
    #expect(store.state.rung == (0..<1_000).reversed().map { "alarm \($0)" })
  }

  @Test func finishWaitsForTheTimersAndCancelAllStopsThem() async {
    let clock = TestClock()
    let store = alarms(on: clock)
    store.send(.set("tea", seconds: 10))
    store.send(.set("eggs", seconds: 20))
    await settle(store, clock)
    let advancing = Task { await clock.advance(by: .seconds(10)) }
    await advancing.value
    #expect(store.state.rung == ["tea"])
    store.send(.set("bread", seconds: 5))
    await store.cancelAll()
    #expect(store.inFlight.isEmpty)
    await clock.advance(by: .seconds(60))
    #expect(store.state.rung == ["tea"], "cancelled timers feed nothing back")
    await store.finish()
  }

  @Test func aTimerSoonerThanTheOneWaitedForWakesTheStoreInTime() async {
    let clock = TestClock()
    let store = alarms(on: clock)
    store.send(.set("tea", seconds: 60))
    await settle(store, clock)
    store.send(.set("eggs", seconds: 5))
    await settle(store, clock)
    #expect(clock.sleepers.map(\.deadline) == [TestClock.Instant(offset: .seconds(5))])
    await clock.advance(by: .seconds(5))
    #expect(store.state.rung == ["eggs"])
    await clock.advance(by: .seconds(55))
    #expect(store.state.rung == ["eggs", "tea"])
  }

  @Test func aTimerOnAClockOfAnotherKindRunsAsATaskOfItsOwn() async {
    let clock = TestClock()
    let store = alarms(on: LaggingClock(base: clock))
    store.send(.set("tea", seconds: 10))
    store.send(.set("eggs", seconds: 5))
    await settle(store, clock)
    #expect(clock.sleepers.map(\.label).sorted() == ["eggs", "tea"])
    await clock.advance(by: .seconds(10))
    #expect(store.state.rung == ["eggs", "tea"])
  }

  @Test func aTimerRunsInTheTestStoreAsWorkThatSleeps() async {
    let clock = TestClock()
    let store = TestStore(Alarms.self, state: .init(), environment: .init(clock: clock), clock: clock)
    await store.send(.set("tea", seconds: 3))
    store.expectEffects(["tea"])
    await store.advance(by: .seconds(3))
    await store.receive(.rang("tea")) { $0.rung = ["tea"] }
    await store.finish()
  }

  @Test func aTimersOperationSleepsAndReturnsItsAction() async {
    let clock = TestClock()
    let timer = EffectTask<Alarms.Action>.after(.seconds(2), on: clock, id: "tea", send: .rang("tea"))
    let running = Task { await timer.operation() }
    while clock.sleepers.isEmpty { await Task.yield() }
    await clock.advance(by: .seconds(2))
    #expect(await running.value == .rang("tea"))
    #expect(timer.timer?.delay == .seconds(2))
  }
}
