import Clock
import Foundation
import Testing
import VirtualTime

/// A world whose clock is frozen by one stored literal.
struct FrozenWorld: LinkFixedClock {
  let frozenNow = Date(timeIntervalSince1970: 1_750_000_000)
}

/// A world on the wall clock.
struct LiveWorld: LinkSystemClock {}

@Test func theFixedLinkBuildsItsClockFromTheDemandedInstant() {
  let world = FrozenWorld()
  #expect(world.clock.now() == Date(timeIntervalSince1970: 1_750_000_000))
  #expect(world.clock.now() == world.clock.now())
}

@Test func theSystemLinkTellsTheWallClock() {
  let before = Date()
  let told = LiveWorld().clock.now()
  #expect(told >= before)
  #expect(told <= Date())
}

@Test func theFixedClockNeverWaitsAndItsUptimeStands() async throws {
  let clock = FixedClock(frozenNow: Date(timeIntervalSince1970: 7))
  try await clock.sleep(for: .seconds(3_600))
  #expect(clock.uptime() == .zero)
  #expect(clock.now() == Date(timeIntervalSince1970: 7))
}

@Test func theSystemClocksUptimeIsMonotonic() {
  let clock = SystemClock()
  let first = clock.uptime()
  #expect(clock.uptime() >= first)
}

@Test func theVirtualClockTellsTheTestClocksDateAndWaitsOnIt() async throws {
  let testClock = TestClock(startDate: Date(timeIntervalSince1970: 1_000))
  let clock = VirtualClock(testClock)
  let sleeper = Task(name: "receipt") { try await clock.sleep(for: .seconds(3)) }
  while testClock.sleepers.isEmpty { await Task.yield() }
  #expect(testClock.sleepers.map(\.label) == ["receipt"])
  await testClock.advance(by: .seconds(3))
  try await sleeper.value
  #expect(clock.now() == Date(timeIntervalSince1970: 1_003))
  #expect(clock.uptime() == .seconds(3))
}
