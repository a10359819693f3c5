import Clock
import Foundation
import Testing

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
