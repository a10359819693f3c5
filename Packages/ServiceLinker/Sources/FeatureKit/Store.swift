/// Runs a feature for an app: each action sent is stepped on the state, and
/// the asynchronous work the step names is started off the main actor; what
/// that work feeds back is stepped the same way, in the order it arrives.
///
/// The state never leaves the main actor. `onStep` sees every step, sent or
/// fed back, with what it did: what an app journals or redraws from, and
/// what `TestStore` asserts.
@MainActor
public final class Store<Model: FeatureModel> {
  /// One step the store ran.
  public struct Step {
    /// The action stepped.
    public let action: Model.Action
    /// What the step did.
    public let result: StepResult<Model.Effect, Model.Outcome>
    /// The ids of the work it started, in order.
    public let started: [String]
    /// True when asynchronous work fed the action back; false when it was sent.
    public let wasFedBack: Bool
  }

  /// The state after the last step.
  public private(set) var state: Model.State
  /// What the work runs on.
  public let environment: Model.Environment
  /// Called after every step, sent or fed back.
  public var onStep: ((Step) -> Void)?
  private var work = WorkInFlight<Model.Action>()

  /// A store starting at `state`, its work running on `environment`.
  public init(state: Model.State, environment: Model.Environment) {
    self.state = state
    self.environment = environment
    work.deliver = { [weak self] action, id, generation in
      self?.feedBack(action, from: id, generation: generation)
    }
  }

  /// The ids of the work in flight, sorted.
  public var inFlight: [String] { work.ids }

  /// The names of the tasks the work in flight runs as, sorted: each piece's
  /// id, and `timers` for the one task that waits for all its timers.
  public var tasksInFlight: [String] { work.taskNames }

  /// Steps `action`, starts the work it names, and returns what the step did.
  @discardableResult
  public func send(_ action: Model.Action) -> StepResult<Model.Effect, Model.Outcome> {
    run(action, wasFedBack: false)
  }

  private func run(_ action: Model.Action, wasFedBack: Bool) -> StepResult<Model.Effect, Model.Outcome> {
    let result = Model.step(&state, action)
    let tasks = Model.tasks(after: action, state: state, result: result, environment: environment)
    for task in tasks { start(task) }
    onStep?(Step(action: action, result: result, started: tasks.map(\.id), wasFedBack: wasFedBack))
    return result
  }

  private func start(_ item: EffectTask<Model.Action>) {
    work.start(item)
  }

  private func feedBack(_ action: Model.Action?, from id: String, generation: Int) {
    // Work replaced or cancelled meanwhile feeds nothing back.
    if let action = work.accept(action, from: id, generation: generation) { _ = run(action, wasFedBack: true) }
  }

  /// Yields until every piece of work in flight is `asleep` (its id among the
  /// names the clock it waits on reports) or has ended: work then runs in a
  /// known order. Gives up after `limit` yields.
  public func settle(limit: Int = 100_000, asleep: () -> Set<String>) async {
    for _ in 0..<limit {
      let sleeping = asleep()
      if work.taskNames.allSatisfy({ sleeping.contains($0) }) { return }
      await Task.yield()
    }
  }

  /// Waits until no work is in flight, including work that work fed back started.
  public func finish() async {
    while let (id, task) = work.any {
      await task.value
      work.forget(id, ifStill: task)
    }
  }

  /// Cancels the work in flight and waits for it to stop; what it would have
  /// fed back is dropped.
  public func cancelAll() async {
    for task in work.cancelAll() { await task.value }
  }
}
