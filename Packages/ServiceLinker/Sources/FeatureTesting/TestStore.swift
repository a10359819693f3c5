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
  public let store: Store<Model>
  /// The clock the work sleeps on, when the test moves time.
  public let clock: TestClock?
  private var asserted: Model.State
  /// Steps work fed back, with the state each left, not yet received.
  private var queued: [(step: Store<Model>.Step, state: Model.State)] = []
  private var started: [String] = []
  private var ended = false

  /// A test store for `model` at `state`, its work on `environment`; pass the
  /// `clock` the environment's work sleeps on to move time with `advance`.
  public init(_ model: Model.Type, state: Model.State, environment: Model.Environment, clock: TestClock? = nil) {
    store = Store(state: state, environment: environment)
    self.clock = clock
    asserted = state
    store.onStep = { [weak self] step in self?.record(step) }
    clock?.settle = { [weak self] in await self?.settle() }
  }

  /// The state as the store has it now.
  public var state: Model.State { store.state }

  private func record(_ step: Store<Model>.Step) {
    started += step.started
    if step.wasFedBack { queued.append((step, store.state)) }
  }

  /// Sends `action`; `update` changes the state as it stood to what the step
  /// should leave (no `update`: unchanged). Fails when an action fed back
  /// before it was not received, or the state differs. Returns what the step did.
  @discardableResult
  public func send(
    _ action: Model.Action, sourceLocation: SourceLocation = #_sourceLocation,
    _ update: ((inout Model.State) -> Void)? = nil
  ) async -> StepResult<Model.Effect, Model.Outcome> {
    if !queued.isEmpty {
      Issue.record(
        Comment(
          rawValue: "received \(queued.map { "\($0.step.action)" }) before sending \(action); receive them first"),
        sourceLocation: sourceLocation)
    }
    let result = store.send(action)
    expectState(after: "sending \(action)", update, sourceLocation: sourceLocation)
    await settle()
    return result
  }

  /// The work started since the last call, in order, is exactly `ids`.
  public func expectEffects(_ ids: [String], sourceLocation: SourceLocation = #_sourceLocation) {
    if started != ids {
      Issue.record(
        Comment(rawValue: "the work started was \(started), not \(ids)"), sourceLocation: sourceLocation)
    }
    started.removeAll()
  }

  /// Expects the next action work fed back to be `action`, and `update` to
  /// say what its step changed. Lets work in flight run first; fails, naming
  /// what waits on the clock, when nothing was fed back.
  @discardableResult
  public func receive(
    _ action: Model.Action, sourceLocation: SourceLocation = #_sourceLocation,
    _ update: ((inout Model.State) -> Void)? = nil
  ) async -> StepResult<Model.Effect, Model.Outcome>? {
    await settle()
    guard !queued.isEmpty else {
      Issue.record(
        Comment(rawValue: "expected to receive \(action), but nothing was fed back; \(waiting)"),
        sourceLocation: sourceLocation)
      return nil
    }
    let (step, reached) = queued.removeFirst()
    if step.action != action {
      Issue.record(
        Comment(rawValue: "received \(step.action), not \(action)"), sourceLocation: sourceLocation)
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
    guard let clock else {
      Issue.record("advance(by:) needs the TestClock the work sleeps on", sourceLocation: sourceLocation)
      return
    }
    await clock.advance(by: duration)
  }

  /// Ends the test: lets work run, then fails for work started but not
  /// expected, actions fed back but not received, work still in flight and
  /// tasks still asleep on the clock.
  public func finish(sourceLocation: SourceLocation = #_sourceLocation) async {
    await settle()
    ended = true
    if !store.inFlight.isEmpty {
      Issue.record(
        Comment(rawValue: "work still in flight at the end: \(store.inFlight); \(waiting)"),
        sourceLocation: sourceLocation)
    }
    end(sourceLocation: sourceLocation)
  }

  /// Cancels the work in flight (its actions are dropped), then checks as
  /// `finish()` does.
  public func teardown(sourceLocation: SourceLocation = #_sourceLocation) async {
    await store.cancelAll()
    await finish(sourceLocation: sourceLocation)
  }

  private func end(sourceLocation: SourceLocation) {
    if !started.isEmpty {
      Issue.record(
        Comment(rawValue: "work started but never expected: \(started)"), sourceLocation: sourceLocation)
    }
    if !queued.isEmpty {
      Issue.record(
        Comment(rawValue: "actions fed back but never received: \(queued.map { "\($0.step.action)" })"),
        sourceLocation: sourceLocation)
    }
    let sleepers = clock?.sleepers ?? []
    if !sleepers.isEmpty {
      Issue.record(
        Comment(rawValue: "still asleep on the clock: \(sleepers.map(\.description).joined(separator: "; "))"),
        sourceLocation: sourceLocation)
    }
  }

  private func expectState(
    after what: String, _ update: ((inout Model.State) -> Void)?, sourceLocation: SourceLocation
  ) {
    var expected = asserted
    update?(&expected)
    if expected != store.state {
      Issue.record(
        Comment(rawValue: "after \(what) the state is \(store.state), not \(expected)"),
        sourceLocation: sourceLocation)
    }
    asserted = store.state
  }

  private var waiting: String {
    let sleepers = clock?.sleepers ?? []
    return sleepers.isEmpty
      ? "nothing is asleep on the clock"
      : "asleep on the clock at \(clock.map { "\($0.now)" } ?? ""): "
        + sleepers.map(\.description).joined(separator: "; ") + "; advance the clock"
  }

  /// Waits until each piece of work in flight is asleep on the clock (a
  /// sleeper named by its id) or has ended, so work runs in a known order.
  private func settle() async {
    let clock = clock
    await store.settle { Set(clock?.sleepers.map(\.label) ?? []) }
  }

  // A backstop: a test store dropped without `finish()` or `teardown()` ends unchecked.
  isolated deinit {
    if !ended {
      Issue.record("a TestStore was dropped without finish() or teardown(): what it did was not checked")
    }
  }
}
