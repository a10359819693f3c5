import Foundation
import Testing
import VirtualTime
import _ServiceLinkerTestSupport

/// Starts a task named `name` that sleeps `duration` on `clock`, then logs its name and the instant it woke at.
private func sleeper(
  _ name: String, for duration: Duration, on clock: TestClock, log: Locked<[String]>
) -> Task<Void, Never> {
  Task(name: name) {
    do {
      try await clock.sleep(for: duration)
      log.withLock { $0.append("\(name)@\(clock.now)") }
    } catch {
      log.withLock { $0.append("\(name) cancelled") }
    }
  }
}

/// Waits (by yielding) until `clock` has `count` sleepers.
private func untilSleeping(_ count: Int, on clock: TestClock) async {
  for _ in 0..<100_000 {
    if clock.sleepers.count >= count { return }
    await Task.yield()
  }
}

@Suite struct TestClockTests {
  @Test func advanceWakesEachSleeperWhoseDeadlinePassesInDeadlineOrderAtItsDeadline() async {
    let clock = TestClock()
    let log = Locked<[String]>([])
    let tasks = [
      sleeper("c", for: .seconds(3), on: clock, log: log), sleeper("a", for: .seconds(1), on: clock, log: log),
      sleeper("b", for: .seconds(2), on: clock, log: log), sleeper("late", for: .seconds(9), on: clock, log: log),
    ]
    await untilSleeping(4, on: clock)
    // Exact: a woken sleeper has run on once it has logged (each wake removes one of the four).
    clock.settle = {
      for _ in 0..<100_000 {
        if log.withLock({ $0.count }) + clock.sleepers.count == 4 { return }
        await Task.yield()
      }
    }
    #expect(clock.sleepers.map(\.label) == ["a", "b", "c", "late"])
    await clock.advance(by: .seconds(3))
    for task in tasks.prefix(3) { await task.value }
    #expect(log.withLock { $0 } == ["a@t+1.0 seconds", "b@t+2.0 seconds", "c@t+3.0 seconds"])
    #expect(clock.now.offset == .seconds(3))
    #expect(clock.sleepers.map(\.description) == ["late (until t+9.0 seconds)"])
    await clock.run()
    await tasks[3].value
    #expect(clock.sleepers.isEmpty)
  }

  @Test func aSleepUntilAnInstantAlreadyPassedReturnsAtOnce() async throws {
    let clock = TestClock()
    await clock.advance(by: .seconds(5))
    try await clock.sleep(until: TestClock.Instant(offset: .seconds(4)))
    try await clock.sleep(for: .zero)
    #expect(clock.sleepers.isEmpty)
  }

  @Test func cancellingASleeperRemovesItAndItsSleepThrows() async {
    let clock = TestClock()
    let log = Locked<[String]>([])
    let task = sleeper("doomed", for: .seconds(1), on: clock, log: log)
    await untilSleeping(1, on: clock)
    task.cancel()
    await task.value
    #expect(log.withLock { $0 } == ["doomed cancelled"])
    #expect(clock.sleepers.isEmpty)
  }

  @Test func aTaskCancelledBeforeItSleepsDoesNotWait() async {
    let clock = TestClock()
    let task = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      do { try await clock.sleep(for: .seconds(1)) } catch { return "cancelled" }
      return "slept"
    }
    #expect(await task.value == "cancelled")
    #expect(clock.sleepers.isEmpty)
  }

  @Test func runDrainsSleepersThatSleepAgain() async {
    let clock = TestClock()
    let ticks = Locked(0)
    let task = Task(name: "ticker") {
      for _ in 0..<5 {
        try? await clock.sleep(for: .seconds(2))
        ticks.withLock { $0 += 1 }
      }
    }
    await untilSleeping(1, on: clock)
    // Exact, not the default yields: woken, the ticker has run on once it sleeps again or has ticked five times.
    clock.settle = {
      for _ in 0..<100_000 {
        if !clock.sleepers.isEmpty || ticks.withLock({ $0 }) == 5 { return }
        await Task.yield()
      }
    }
    await clock.run()
    await task.value
    #expect(ticks.withLock { $0 } == 5)
    #expect(clock.now.offset == .seconds(10))
  }

  @Test func runStopsAfterLimitDeadlinesEvenWhenATaskSleepsAgainAndAgain() async {
    let clock = TestClock()
    let ticks = Locked(0)
    let ticker = Task(name: "ticker") {
      while !Task.isCancelled {
        do { try await clock.sleep(for: .seconds(1)) } catch { return }
        ticks.withLock { $0 += 1 }
      }
    }
    let far = Task(name: "far") { try? await clock.sleep(for: .seconds(5_000)) }
    await untilSleeping(2, on: clock)
    clock.settle = {
      for _ in 0..<100_000 {
        if clock.sleepers.count == 2 { return }
        await Task.yield()
      }
    }
    await clock.run(limit: 3)
    #expect(clock.now.offset == .seconds(3), "three deadlines reached, the soonest first")
    #expect(ticks.withLock { $0 } == 3)
    ticker.cancel()
    far.cancel()
    await ticker.value
    await far.value
  }

  @Test func theDateAndTheUptimeMoveWithTheClock() async {
    let clock = TestClock(startDate: Date(timeIntervalSince1970: 1_000))
    await clock.advance(by: .milliseconds(1_500))
    #expect(clock.date == Date(timeIntervalSince1970: 1_001.5))
    #expect(clock.elapsed == .milliseconds(1_500))
  }

  @Test func itIsAPlainClockToCodeThatTakesOne() async throws {
    func wait<C: Clock>(on clock: C) async throws -> C.Instant where C.Duration == Duration {
      try await clock.sleep(for: .seconds(2))
      return clock.now
    }
    let clock = TestClock()
    let task = Task(name: "standard") { try await wait(on: clock) }
    await untilSleeping(1, on: clock)
    await clock.advance(by: .seconds(2))
    #expect(try await task.value == TestClock.Instant(offset: .seconds(2)))
  }
}
