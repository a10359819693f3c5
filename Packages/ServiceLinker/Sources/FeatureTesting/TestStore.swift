import FeatureKit
import Testing
import VirtualTime

/// A feature under test, exhaustively: a test `send`s actions and states how
/// each changed the state, names the work each started (`expectEffects`),
/// states every action that work fed back and what it changed (`receive`),
/// moves virtual time (`advance`), and ends with `finish()` or `teardown()`.
/// Whatever it did not assert fails the test at the line that let it pass: a
/// state change, work started, an action fed back, work still in flight, a
/// task still asleep on the clock.
///
/// ```swift
/// let store = TestStore(Timer.self, state: .init(), environment: .init(clock: clock), clock: clock)
/// await store.send(.start) { $0.running = true }
/// store.expectEffects(["tick"])
/// await store.advance(by: .seconds(1))
/// await store.receive(.tick) { $0.elapsed = 1 }
/// await store.finish()
/// ```
@MainActor
public final class TestStore<Model: FeatureModel> {
  /// The store the test drives: the same one an app runs.
  public var store: Store<Model> { runner.store }
  /// The clock the work sleeps on, when the test moves time.
  public let clock: TestClock?
  private let runner: StoreRunner<Model>
  private let harness: EffectHarness<StoreRunner<Model>>
  private var asserted: Model.State

  /// A test store for `model` at `state`, its work on `environment`; pass the
  /// `clock` the environment's work sleeps on to move time with `advance`.
  public init(_ model: Model.Type, state: Model.State, environment: Model.Environment, clock: TestClock? = nil) {
    runner = StoreRunner(Store(state: state, environment: environment))
    harness = EffectHarness(runner, clock: clock)
    self.clock = clock
    asserted = state
    runner.didStart = { [weak harness] ids in harness?.didStart(ids) }
  }

  /// The state as the store has it now.
  public var state: Model.State { store.state }

  /// Sends `action`; `update` changes the state as it stood to what the step
  /// should leave (no `update`: unchanged). Fails when an action fed back
  /// before it was not received, or the state differs. Returns what the step did.
  @discardableResult
  public func send(
    _ action: Model.Action, sourceLocation: SourceLocation = #_sourceLocation,
    _ update: ((inout Model.State) -> Void)? = nil
  ) async -> StepResult<Model.Effect, Model.Outcome> {
    let pending = harness.unreceived
    if !pending.isEmpty {
      Issue.record(
        Comment(
          rawValue: "received \(pending.map { "\($0.step.action)" }) before sending \(action); receive them first"),
        sourceLocation: sourceLocation)
    }
    let result = store.send(action)
    var expected = asserted
    update?(&expected)
    if expected != store.state {
      Issue.record(
        Comment(rawValue: "after sending \(action) the state is \(store.state), not \(expected)"),
        sourceLocation: sourceLocation)
    }
    asserted = store.state
    await harness.settle()
    return result
  }

  /// The work started since the last call, in order, is exactly `ids`.
  public func expectEffects(_ ids: [String], sourceLocation: SourceLocation = #_sourceLocation) {
    harness.expectEffects(ids, sourceLocation: sourceLocation)
  }

  /// Expects the next action work fed back to be `action`, and `update` to
  /// say what its step changed. Lets work in flight run first; fails, naming
  /// what waits on the clock, when nothing was fed back.
  @discardableResult
  public func receive(
    _ action: Model.Action, sourceLocation: SourceLocation = #_sourceLocation,
    _ update: ((inout Model.State) -> Void)? = nil
  ) async -> StepResult<Model.Effect, Model.Outcome>? {
    guard let (step, reached) = await harness.nextFedBack(expecting: "\(action)", sourceLocation: sourceLocation)
    else { return nil }
    if step.action != action {
      Issue.record(Comment(rawValue: "received \(step.action), not \(action)"), sourceLocation: sourceLocation)
    }
    var expected = asserted
    update?(&expected)
    if expected != reached {
      Issue.record(
        Comment(rawValue: "after receiving \(action) the state is \(reached), not \(expected)"),
        sourceLocation: sourceLocation)
    }
    asserted = reached
    return step.result
  }

  /// Moves the clock on by `duration`, letting each piece of woken work run
  /// to its next wait or its end.
  public func advance(by duration: Duration, sourceLocation: SourceLocation = #_sourceLocation) async {
    await harness.advance(by: duration, sourceLocation: sourceLocation)
  }

  /// Ends the test: lets work run, then fails for work started but not
  /// expected, actions fed back but not received, work still in flight and
  /// tasks still asleep on the clock.
  public func finish(sourceLocation: SourceLocation = #_sourceLocation) async {
    await harness.finish(sourceLocation: sourceLocation)
  }

  /// Cancels the work in flight (its actions are dropped), then checks as `finish()` does.
  public func teardown(sourceLocation: SourceLocation = #_sourceLocation) async {
    await harness.teardown(sourceLocation: sourceLocation)
  }
}

/// A `Store` as an `EffectRunner`: what its work fed back, each with the state its step left.
@MainActor
final class StoreRunner<Model: FeatureModel>: EffectRunner {
  let store: Store<Model>
  var didStart: ([String]) -> Void = { _ in }
  private(set) var workFedBack: [(step: Store<Model>.Step, state: Model.State)] = []

  init(_ store: Store<Model>) {
    self.store = store
    store.onStep = { [weak self] step in
      guard let self else { return }
      self.didStart(step.started)
      if step.wasFedBack { self.workFedBack.append((step, store.state)) }
    }
  }

  var workInFlight: [String] { store.inFlight }
  var tasksInFlight: [String] { store.tasksInFlight }

  func cancelWork() async { await store.cancelAll() }
}
