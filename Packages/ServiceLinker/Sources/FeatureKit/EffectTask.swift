/// One piece of asynchronous work a step started: named by `id`, so a test
/// can expect it and a test clock can name who sleeps (the task runs as
/// `Task(name: id)`), and feeding at most one action back to the step.
public struct EffectTask<Action: Sendable>: Sendable {
  /// The work's name; unique among the work in flight. Starting work under an
  /// id already in flight cancels the earlier one.
  public let id: String
  /// The work. Returns the action to feed back, or nil for none; a cancelled
  /// task's action is dropped.
  public let operation: @Sendable () async -> Action?

  /// Work named `id`.
  public init(id: String, _ operation: @escaping @Sendable () async -> Action?) {
    self.id = id
    self.operation = operation
  }
}
