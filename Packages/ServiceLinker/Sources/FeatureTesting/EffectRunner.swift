/// What an `EffectHarness` drives: an app's runtime that starts named work
/// off the main actor (each piece as `Task(name: id)`, so a `TestClock` names
/// it among its sleepers) and logs what the work fed back. A `Store` is one,
/// through `TestStore`; an app's own runtime (the kiosk's shell) can be one.
@MainActor
public protocol EffectRunner: AnyObject {
  /// What one piece of work fed back.
  associatedtype FedBack

  /// The ids of the work in flight.
  var workInFlight: [String] { get }

  /// Everything work fed back so far, oldest first.
  var workFedBack: [FedBack] { get }

  /// Cancels the work in flight and returns once it has stopped.
  func cancelWork() async
}
