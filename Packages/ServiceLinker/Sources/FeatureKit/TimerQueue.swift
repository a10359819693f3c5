import Synchronization

/// The timers (`EffectTask.after`) a store started on one clock, waited for
/// by one task, named `TimerQueue.label`.
///
/// That task sleeps until the soonest live deadline. When it wakes it takes
/// every timer due by then, hands them to the main actor to be fed back
/// (soonest first, in the order they were started), and sleeps again for the
/// next one before anything else runs, so on a `TestClock` the next sleep is
/// registered as the earlier one ends, as a task per timer would have had it.
///
/// Starting a timer is a heap insert; it costs a new task only when it is
/// sooner than the one the task sleeps for, or replaces it. A timer replaced
/// or cancelled stays in the heap, dead, until its deadline passes or dead
/// ones outnumber live ones.
///
/// On a `TestClock`, timers and other sleepers due at the same instant wake
/// in the order they went to sleep: the queue sleeps for a timer only once
/// it is the soonest, so a task that slept for that instant before then wakes
/// first (with a task per timer, the timer went first).
@usableFromInline final class TimerQueue: Sendable {
  /// A timer waiting: when it is due, in the order timers were started.
  private struct Entry: Sendable {
    var due: Duration
    var order: Int
    var id: String
    var generation: Int
    /// Feeds the timer's action back (on the main actor).
    var fire: @MainActor @Sendable () async -> Void
  }

  private struct State: ~Copyable {
    /// A binary min-heap by `(due, order)`.
    var heap: [Entry] = []
    var started = 0
    /// The generation of each live timer, by id.
    var live: [String: Int] = [:]
    /// The task that waits, and the timer it sleeps for.
    var waiter: (task: Task<Void, Never>, due: Duration, id: String)?
    /// The hand-overs to the main actor not yet done, by number.
    var feeding: [Int: Task<Void, Never>] = [:]
    var fed = 0
  }

  /// The name of the task that waits for the timers: what a test clock lists
  /// as sleeping while timers are pending.
  static var label: String { "timers" }

  /// The name under which timers due and not yet fed back are in flight: a
  /// name no clock lists asleep, so `Store.settle` waits for them.
  static var feedingLabel: String { "timers (feeding back)" }

  /// Which clock this queue waits on (`key(of:)`).
  @usableFromInline let clock: ObjectIdentifier
  /// The clock's time since the queue was made.
  private let elapsed: @Sendable () -> Duration
  /// Sleeps until `due` after the queue was made; throws when cancelled.
  private let sleep: @Sendable (Duration) async throws -> Void
  private let state = Mutex(State())

  /// A queue on `clock`, counting time from now.
  @usableFromInline init<C: Clock<Duration>>(clock: C, key: ObjectIdentifier) {
    self.clock = key
    let origin = clock.now
    elapsed = { origin.duration(to: clock.now) }
    sleep = { due in try await clock.sleep(until: origin.advanced(by: due), tolerance: nil) }
  }

  /// The identity of `clock` when timers on it can share a queue: a clock
  /// object itself (a `TestClock`), or the type of a clock with no state of
  /// its own (`ContinuousClock`, `SuspendingClock`); nil for any other
  /// clock, whose timers each get a task, since two of its values may keep
  /// different time.
  @usableFromInline static func key(of clock: any Clock<Duration>) -> ObjectIdentifier? {
    let type = ObjectIdentifier(Swift.type(of: clock))
    if type == ObjectIdentifier(ContinuousClock.self) || type == ObjectIdentifier(SuspendingClock.self) { return type }
    return Swift.type(of: clock) is AnyObject.Type ? ObjectIdentifier(clock as AnyObject) : nil
  }

  /// The ids of the live timers: waiting, or due and not yet fed back.
  var liveIDs: [String] { state.withLock { Array($0.live.keys) } }

  /// The names of the queue's tasks running now: `label` while it waits for
  /// a timer, `feedingLabel` while timers due are not yet fed back.
  var taskNames: [String] {
    state.withLock { state in
      (state.waiter == nil ? [] : [Self.label]) + (state.feeding.isEmpty ? [] : [Self.feedingLabel])
    }
  }

  /// What `finish` waits for next: a hand-over, else the waiting task.
  var nextTask: Task<Void, Never>? { state.withLock { $0.feeding.first?.value ?? $0.waiter?.task } }

  /// Starts timer `id` of `generation`: `fire` runs on the main actor after
  /// `delay`. A live timer of the same id is replaced.
  @usableFromInline func schedule(
    id: String, generation: Int, after delay: Duration, fire: @escaping @MainActor @Sendable () async -> Void
  ) {
    let due = elapsed() + delay
    state.withLock { state in
      let replaced = state.live.updateValue(generation, forKey: id) != nil
      state.started += 1
      Self.push(
        Entry(due: due, order: state.started, id: id, generation: generation, fire: fire),
        into: &state.heap)
      if replaced { Self.dropDeadIfMostlyDead(&state) }
      if let waiter = state.waiter, waiter.due <= due, !(replaced && waiter.id == id) { return }
      arm(&state)
    }
  }

  /// The number of timers in the heap, live and dead: what compaction bounds.
  var heapCount: Int { state.withLock { $0.heap.count } }

  /// Drops the dead timers once they outnumber the live ones (and 64), so
  /// a store that replaces or cancels timers often keeps a heap about the
  /// size of its live ones. A sorted array is a heap.
  private static func dropDeadIfMostlyDead(_ state: inout State) {
    guard state.heap.count > 2 * state.live.count + 64 else { return }
    state.heap.removeAll { [live = state.live] in live[$0.id] != $0.generation }
    state.heap.sort { ($0.due, $0.order) < ($1.due, $1.order) }
  }

  /// Stops timer `id` if it is live.
  @usableFromInline func cancel(_ id: String) {
    state.withLock { state in
      guard state.live.removeValue(forKey: id) != nil else { return }
      if state.waiter?.id == id { arm(&state) }
      Self.dropDeadIfMostlyDead(&state)
    }
  }

  /// Ends timer `id` of `generation` as fed back; false when it is no longer
  /// live (replaced or cancelled meanwhile).
  func take(_ id: String, generation: Int) -> Bool {
    state.withLock { state in
      guard state.live[id] == generation else { return false }
      state.live[id] = nil
      return true
    }
  }

  /// Stops every timer; returns the tasks, cancelled, to wait for.
  func cancelAll() -> [Task<Void, Never>] {
    state.withLock { state in
      state.live.removeAll()
      state.heap.removeAll()
      let tasks = Array(state.feeding.values) + (state.waiter.map { [$0.task] } ?? [])
      for task in tasks { task.cancel() }
      state.waiter = nil
      return tasks
    }
  }

  /// Replaces the waiting task with one that sleeps until the soonest live timer, if any.
  private func arm(_ state: inout State) {
    state.waiter?.task.cancel()
    state.waiter = nil
    guard let head = Self.soonestLive(&state) else { return }
    let sleep = sleep
    let task = Task.detached(name: Self.label) { [weak self] in
      var due = head.due
      while true {
        do { try await sleep(due) } catch {
          // A clock that fails a sleep it was not asked to cancel: the timers
          // end unfired, as a task per timer would have, and nothing waits on.
          if !Task.isCancelled { self?.endAfterFailedSleep() }
          return
        }
        guard let next = self?.feedBackDue() else { return }
        due = next
      }
    }
    state.waiter = (task, head.due, head.id)
  }

  /// Ends every timer after the waiting task's sleep failed, unless that task was replaced meanwhile.
  private func endAfterFailedSleep() {
    state.withLock { state in
      guard !Task.isCancelled else { return }
      state.live.removeAll()
      state.heap.removeAll()
      state.waiter = nil
    }
  }

  /// A queue dropped with its store stops waiting: no task sleeps on for it.
  deinit {
    state.withLock { state in
      state.waiter?.task.cancel()
      for task in state.feeding.values { task.cancel() }
    }
  }

  /// Hands every live timer due by now to the main actor, and returns the
  /// deadline to sleep for next; nil when the calling task was replaced or
  /// no timer is left.
  private func feedBackDue() -> Duration? {
    let now = elapsed()
    return state.withLock { state in
      // Replaced (cancelled under this lock) after its sleep ended: the newer task goes on.
      guard !Task.isCancelled else { return nil }
      var due: [Entry] = []
      while let head = state.heap.first, head.due <= now {
        if state.live[head.id] == head.generation { due.append(head) }
        Self.pop(from: &state.heap)
      }
      if !due.isEmpty {
        state.fed += 1
        let number = state.fed
        state.feeding[number] = Task { @MainActor [weak self] in
          for entry in due { await entry.fire() }
          _ = self?.state.withLock { $0.feeding.removeValue(forKey: number) }
        }
      }
      guard let next = Self.soonestLive(&state) else {
        state.waiter = nil
        return nil
      }
      state.waiter?.due = next.due
      state.waiter?.id = next.id
      return next.due
    }
  }

  /// The soonest live timer, dropping the dead ones ahead of it.
  private static func soonestLive(_ state: inout State) -> Entry? {
    while let head = state.heap.first, state.live[head.id] != head.generation { pop(from: &state.heap) }
    return state.heap.first
  }

  private static func push(_ entry: consuming Entry, into heap: inout [Entry]) {
    heap.append(entry)
    var child = heap.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard precedes(heap[child], heap[parent]) else { break }
      heap.swapAt(child, parent)
      child = parent
    }
  }

  private static func pop(from heap: inout [Entry]) {
    let last = heap.count - 1
    heap.swapAt(0, last)
    heap.removeLast()
    var parent = 0
    while true {
      let left = 2 * parent + 1
      guard left < heap.count else { return }
      let right = left + 1
      let child = right < heap.count && precedes(heap[right], heap[left]) ? right : left
      guard precedes(heap[child], heap[parent]) else { return }
      heap.swapAt(child, parent)
      parent = child
    }
  }

  private static func precedes(_ one: Entry, _ other: Entry) -> Bool {
    (one.due, one.order) < (other.due, other.order)
  }
}
