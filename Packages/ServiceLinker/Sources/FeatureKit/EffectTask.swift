/// One piece of asynchronous work a step started: named by `id`, so a test
/// can expect it and a test clock can name who sleeps (the task runs as
/// `Task(name: id)`), and feeding at most one action back to the step.
public struct EffectTask<Action: Sendable>: Sendable {
  /// The work's name; unique among the work in flight. Starting work under an
  /// id already in flight cancels the earlier one.
  public let id: String
  /// Set for a timer (`after(_:on:id:send:)`): what it waits for and feeds back.
  public let timer: Timer?
  @usableFromInline let work: (@Sendable () async -> Action?)?

  /// Work named `id`.
  public init(id: String, _ operation: @escaping @Sendable () async -> Action?) {
    self.id = id
    self.work = operation
    self.timer = nil
  }

  /// A timer named `id`: after `delay` on `clock` it feeds `action` back.
  ///
  /// Its `operation` sleeps and returns `action`, so anything that runs work
  /// runs it. A store (`Store`, `DurableStore`) waits for all the timers on
  /// one clock with one task instead of a task each: setting one costs a
  /// heap insert, and a thousand pending timers are one sleeping task.
  @inlinable public static func after(
    _ delay: Duration, on clock: any Clock<Duration>, id: String, send action: Action
  ) -> EffectTask {
    EffectTask(id: id, timer: Timer(delay: delay, clock: clock, action: action))
  }

  @usableFromInline init(id: String, timer: Timer) {
    self.id = id
    self.timer = timer
    self.work = nil
  }

  /// The work. Returns the action to feed back, or nil for none; a cancelled
  /// task's action is dropped.
  public var operation: @Sendable () async -> Action? {
    if let work { return work }
    // Only a timer has no work of its own.
    let timer = timer!
    return {
      do { try await timer.clock.sleep(for: timer.delay) } catch { return nil }
      return timer.action
    }
  }

  /// What a timer waits for and feeds back.
  public struct Timer: Sendable {
    /// How long it waits, from when it is started.
    public let delay: Duration
    /// The clock it waits on.
    public let clock: any Clock<Duration>
    /// What it feeds back when the delay has passed.
    public let action: Action

    @usableFromInline init(delay: Duration, clock: any Clock<Duration>, action: Action) {
      self.delay = delay
      self.clock = clock
      self.action = action
    }
  }
}
