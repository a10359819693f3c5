/// What an `EffectHarness` drives: an app's runtime that starts named work
/// off the main actor (each piece as `Task(name: id)`, so a `TestClock` names
/// it among its sleepers) and logs what the work fed back. A `Store` is one,
/// through `TestStore`; an app's own runtime can be one.
@MainActor
public protocol EffectRunner: AnyObject {
  /// What one piece of work fed back.
  associatedtype FedBack

  /// The ids of the work in flight.
  var workInFlight: [String] { get }

  /// The names of the tasks the work in flight runs as: what a `TestClock`
  /// lists asleep once the work waits on it. `workInFlight` by default (a
  /// task per piece of work, named by its id).
  var tasksInFlight: [String] { get }

  /// Everything work fed back so far, oldest first.
  var workFedBack: [FedBack] { get }

  /// Cancels the work in flight and returns once it has stopped.
  func cancelWork() async
}

extension EffectRunner {
  /// A task per piece of work, named by its id.
  public var tasksInFlight: [String] { workInFlight }
}
