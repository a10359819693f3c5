/// The asynchronous work a store started, by id: what `Store` and
/// `DurableStore` share. Work started under an id already in flight replaces
/// it (the earlier one is cancelled), and work replaced or cancelled meanwhile
/// feeds nothing back.
@MainActor
public struct WorkInFlight<Action: Sendable> {
  private var running: [String: (generation: Int, task: Task<Void, Never>)] = [:]
  private var generation = 0

  /// No work.
  public init() {}

  /// The ids of the work in flight, sorted.
  public var ids: [String] { running.keys.sorted() }

  /// Starts `work` as `Task(name: work.id)`; when it ends, `deliver` gets
  /// what it fed back and its generation, to hand to `accept`.
  public mutating func start(
    _ work: EffectTask<Action>, deliver: @escaping @MainActor (Action?, _ generation: Int) async -> Void
  ) {
    running[work.id]?.task.cancel()
    generation += 1
    let mine = generation
    let task = Task(name: work.id) {
      let action = await work.operation()
      await deliver(action, mine)
    }
    running[work.id] = (mine, task)
  }

  /// Ends the work `id` of `generation` and returns the action it fed back,
  /// or nil when it fed none, was replaced, or was cancelled.
  public mutating func accept(_ action: Action?, from id: String, generation: Int) -> Action? {
    guard running[id]?.generation == generation else { return nil }
    let cancelled = running[id]?.task.isCancelled ?? true
    running[id] = nil
    return cancelled ? nil : action
  }

  /// One piece of work in flight, if any: what `finish` waits for next.
  public var any: (id: String, task: Task<Void, Never>)? { running.first.map { ($0.key, $0.value.task) } }

  /// Forgets `id` when `task` is still the work under it (it ended without feeding back).
  public mutating func forget(_ id: String, ifStill task: Task<Void, Never>) {
    if running[id]?.task == task { running[id] = nil }
  }

  /// Cancels every piece of work and forgets it; returns the tasks, to wait for.
  public mutating func cancelAll() -> [Task<Void, Never>] {
    let tasks = running.values.map(\.task)
    for task in tasks { task.cancel() }
    running.removeAll()
    return tasks
  }
}
