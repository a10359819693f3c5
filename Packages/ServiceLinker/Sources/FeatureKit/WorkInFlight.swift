/// The asynchronous work a store started, by id: what `Store` and
/// `DurableStore` share. Work started under an id already in flight replaces
/// it (the earlier one is cancelled), and work replaced or cancelled meanwhile
/// feeds nothing back. Timers (`EffectTask.after`) on one clock share one
/// task (`TimerQueue`); other work runs as a task of its own.
@MainActor
public struct WorkInFlight<Action: Sendable> {
  // `start` is inlinable, so a store's build specializes it for its action:
  // these are what it touches.
  @usableFromInline var running: [String: (generation: Int, task: Task<Void, Never>)] = [:]
  @usableFromInline var generation = 0
  /// The timers, on the clock of the first one started; a timer on another clock runs as a task.
  @usableFromInline var timers: TimerQueue?

  /// Where work hands what it fed back, its id and its generation, for the
  /// store to pass to `accept`. The store that owns the work sets it once,
  /// when it is made (it closes over the store, so it cannot be given to
  /// `init`): one closure a store, not one a piece of work. Starting work
  /// before it is set is a programming error.
  public var deliver: (@MainActor @Sendable (Action?, _ id: String, _ generation: Int) async -> Void)?

  /// No work.
  public init() {}

  /// The ids of the work in flight, sorted.
  public var ids: [String] {
    var ids = Array(running.keys)
    if let timers { ids += timers.liveIDs }
    return ids.sorted()
  }

  /// The names of the tasks running now, sorted: work of its own by its id;
  /// `timers` for the task that waits for the timers (they wait in its
  /// queue, not on a clock); and, while timers due are being fed back,
  /// `timers (feeding back)`, which never sleeps. What `Store.settle` waits
  /// to see asleep.
  public var taskNames: [String] {
    (Array(running.keys) + (timers?.taskNames ?? [])).sorted()
  }

  /// Starts `work` (as `Task(name: work.id)`, or in the timer queue); when
  /// it ends, `deliver` gets what it fed back.
  @inlinable public mutating func start(_ work: EffectTask<Action>) {
    guard let deliver else { preconditionFailure("WorkInFlight.deliver is set by its store before work starts") }
    generation += 1
    let mine = generation
    let id = work.id
    if !running.isEmpty, let replaced = running.removeValue(forKey: id) { replaced.task.cancel() }
    if let timer = work.timer, let queue = queue(for: timer.clock) {
      let action = timer.action
      queue.schedule(id: id, generation: mine, after: timer.delay) { await deliver(action, id, mine) }
      return
    }
    timers?.cancel(id)
    let task = Task(name: id) {
      let action = await work.operation()
      await deliver(action, id, mine)
    }
    running[id] = (mine, task)
  }

  /// The queue for timers on `clock`: made for the first timer; nil for a
  /// clock whose timers cannot share it (another clock, or one with state
  /// of its own that is not an object).
  @usableFromInline mutating func queue(for clock: any Clock<Duration>) -> TimerQueue? {
    guard let key = TimerQueue.key(of: clock) else { return nil }
    if let timers { return timers.clock == key ? timers : nil }
    let made = TimerQueue(clock: clock, key: key)
    timers = made
    return made
  }

  /// Ends the work `id` of `generation` and returns the action it fed back,
  /// or nil when it fed none, was replaced, or was cancelled.
  public mutating func accept(_ action: Action?, from id: String, generation: Int) -> Action? {
    if let timers, timers.take(id, generation: generation) { return action }
    guard running[id]?.generation == generation else { return nil }
    let cancelled = running[id]?.task.isCancelled ?? true
    running[id] = nil
    return cancelled ? nil : action
  }

  /// One piece of work in flight, if any: what `finish` waits for next (for
  /// a timer, the task that waits for the soonest one).
  public var any: (id: String, task: Task<Void, Never>)? {
    if let first = running.first { return (first.key, first.value.task) }
    return timers?.nextTask.map { (TimerQueue.label, $0) }
  }

  /// Forgets `id` when `task` is still the work under it (it ended without
  /// feeding back). A timer is forgotten only by `accept` or `cancelAll`.
  public mutating func forget(_ id: String, ifStill task: Task<Void, Never>) {
    if running[id]?.task == task { running[id] = nil }
  }

  /// Cancels every piece of work and forgets it; returns the tasks, to wait for.
  public mutating func cancelAll() -> [Task<Void, Never>] {
    var tasks = running.values.map(\.task)
    for task in tasks { task.cancel() }
    running.removeAll()
    if let timers { tasks += timers.cancelAll() }
    return tasks
  }
}
