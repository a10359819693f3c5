import Testing
import VirtualTime
import _ServiceLinkerTestSupport

@Suite struct OtherClocksTests {
  @Test func anImmediateClockEndsEverySleepAtOnceAndMovesToItsDeadline() async throws {
    let clock = ImmediateClock()
    try await clock.sleep(for: .seconds(30))
    try await clock.sleep(for: .seconds(12))
    #expect(clock.now == TestClock.Instant(offset: .seconds(42)))
  }

  @Test func anImmediateClockStillHonoursCancellation() async {
    let clock = ImmediateClock()
    let task = Task {
      withUnsafeCurrentTask { $0?.cancel() }
      try await clock.sleep(for: .seconds(1))
    }
    await #expect(throws: CancellationError.self) { try await task.value }
  }

  @Test func sleepingOnAnUnimplementedClockFailsTheTestAndStopsTheWork() async {
    let clock = UnimplementedClock("the retry clock")
    await withKnownIssue {
      await #expect(throws: CancellationError.self) { try await clock.sleep(for: .seconds(1)) }
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("slept on the retry clock") }
    }
  }
}
