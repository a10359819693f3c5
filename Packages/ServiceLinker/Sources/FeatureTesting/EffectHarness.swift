import Testing
import VirtualTime

/// The exhaustive core of a test of asynchronous work, for any `EffectRunner`:
/// the work each command started must be expected (`expectEffects`), what it
/// fed back received in order (`nextFedBack`), time moved on a `TestClock`
/// (`advance`), and the test ended with `finish()` or `teardown()`. Whatever
/// it did not assert fails the test: work started and not expected, a result
/// not received, work still in flight, a task still asleep on the clock.
///
/// Between steps it lets work run until each piece in flight is asleep on the
/// clock (a sleeper named by its id) or has ended, so work runs in a known order.
@MainActor
public final class EffectHarness<Runner: EffectRunner> {
  /// What the test drives; nil once the test dropped it (to reopen its files, say).
  public private(set) weak var runner: Runner?
  /// The clock the work sleeps on.
  public let clock: TestClock?
  private var started: [String] = []
  private var received = 0
  private var ended = false

  /// A harness for `runner`, whose work sleeps on `clock`.
  public init(_ runner: Runner, clock: TestClock?) {
    self.runner = runner
    self.clock = clock
    clock?.settle = { [weak self] in await self?.settle() }
  }

  /// Notes work the test just started, which `expectEffects` must name.
  public func didStart(_ ids: [String]) { started += ids }

  /// What was fed back and not received yet, oldest first.
  public var unreceived: [Runner.FedBack] { Array((runner?.workFedBack ?? []).dropFirst(received)) }

  /// The work started since the last call, in order, is exactly `ids`.
  public func expectEffects(_ ids: [String], sourceLocation: SourceLocation = #_sourceLocation) {
    if started != ids {
      Issue.record(Comment(rawValue: "the work started was \(started), not \(ids)"), sourceLocation: sourceLocation)
    }
    started.removeAll()
  }

  /// Lets work run, then returns the next thing work fed back; records an
  /// issue naming what sleeps on the clock, and returns nil, when there is none.
  public func nextFedBack(expecting expected: String, sourceLocation: SourceLocation = #_sourceLocation) async
    -> Runner.FedBack?
  {
    await settle()
    guard let next = unreceived.first else {
      Issue.record(
        Comment(rawValue: "expected \(expected), but no work fed anything back: \(waiting)"),
        sourceLocation: sourceLocation)
      return nil
    }
    received += 1
    return next
  }

  /// Moves the clock on, running each piece of woken work to its next wait or its end.
  public func advance(by duration: Duration, sourceLocation: SourceLocation = #_sourceLocation) async {
    guard let clock else {
      Issue.record("advance(by:) needs the TestClock the work sleeps on", sourceLocation: sourceLocation)
      return
    }
    await clock.advance(by: duration)
  }

  /// Ends the test: fails for work started and not expected, results not
  /// received, work still in flight, and tasks still asleep on the clock.
  public func finish(sourceLocation: SourceLocation = #_sourceLocation) async {
    await settle()
    ended = true
    if !started.isEmpty {
      Issue.record(
        Comment(rawValue: "work started but never expected: \(started)"), sourceLocation: sourceLocation)
    }
    if !unreceived.isEmpty {
      Issue.record(
        Comment(rawValue: "fed back but never received: \(unreceived.map { "\($0)" })"),
        sourceLocation: sourceLocation)
    }
    if let runner, !runner.workInFlight.isEmpty {
      Issue.record(
        Comment(rawValue: "work still in flight at the end: \(runner.workInFlight); \(waiting)"),
        sourceLocation: sourceLocation)
    } else if let clock, !clock.sleepers.isEmpty {
      Issue.record(Comment(rawValue: "at the end, \(waiting)"), sourceLocation: sourceLocation)
    }
  }

  /// Cancels the work in flight, then checks as `finish()` does.
  public func teardown(sourceLocation: SourceLocation = #_sourceLocation) async {
    await runner?.cancelWork()
    await finish(sourceLocation: sourceLocation)
  }

  /// Who waits on the clock, or that nothing does.
  public var waiting: String {
    let sleepers = clock?.sleepers ?? []
    guard let clock, !sleepers.isEmpty else { return "nothing waits on the clock" }
    return "waiting on the clock at \(clock.now): \(sleepers.map(\.description).joined(separator: "; ")); "
      + "advance the clock"
  }

  /// Waits until each piece of work in flight is asleep on the clock or has ended.
  public func settle() async {
    for _ in 0..<100_000 {
      guard let runner else { return }
      let asleep = Set(clock?.sleepers.map(\.label) ?? [])
      if runner.tasksInFlight.allSatisfy({ asleep.contains($0) }) { return }
      await Task.yield()
    }
    Issue.record(
      Comment(rawValue: "work in flight neither slept on the clock nor ended: \(runner?.workInFlight ?? [])"))
  }

  // A backstop: a harness dropped without `finish()` or `teardown()` ends unchecked.
  isolated deinit {
    if !ended { Issue.record("a test harness was dropped without finish() or teardown(): what it ran was not checked") }
  }
}
