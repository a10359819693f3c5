import FeatureKit
import FeatureTesting
import Testing
import VirtualTime

/// The exhaustive TestStore on a feature of no app's, on virtual time.
@MainActor @Suite struct TestStoreTests {
  func kettle(on: Bool = false) -> (TestStore<Kettle>, TestClock) {
    let clock = TestClock()
    return (TestStore(Kettle.self, state: .init(on: on), environment: .init(clock: clock), clock: clock), clock)
  }

  @Test func workSleepsOnTheClockAndFeedsItsActionBack() async {
    let (store, clock) = kettle()
    await store.send(.switchOn) { $0.on = true }
    store.expectEffects(["heat"])
    #expect(clock.sleepers.map(\.label) == ["heat"])
    await store.advance(by: .seconds(2))
    #expect(store.state.boiled == 0, "two seconds in, nothing has boiled")
    await store.advance(by: .seconds(1))
    await store.receive(.boiled) {
      $0.on = false
      $0.boiled = 1
    }
    await store.finish()
  }

  @Test func workReplacedUnderItsIdIsCancelledAndFeedsNothingBack() async {
    let (store, clock) = kettle()
    await store.send(.switchOn) { $0.on = true }
    await store.send(.switchOff) { $0.on = false }
    store.expectEffects(["heat", "heat"])
    await store.advance(by: .seconds(5))
    #expect(clock.sleepers.isEmpty)
    await store.finish()
  }

  @Test func anUnassertedChangeAnUnreceivedActionAndWorkLeftFailTheTest() async {
    let (store, _) = kettle()
    await withKnownIssue {
      await store.send(.switchOn)  // the state changed: on is true
    }
    await store.advance(by: .seconds(3))
    await withKnownIssue {
      // The kettle boiled and fed `.boiled` back, and `heat` was never expected.
      await store.finish()
    }
  }

  @Test func teardownCancelsWorkInFlight() async {
    let (store, clock) = kettle()
    await store.send(.switchOn) { $0.on = true }
    store.expectEffects(["heat"])
    await store.teardown()
    #expect(clock.sleepers.isEmpty)
    #expect(store.store.inFlight.isEmpty)
  }

  @Test func receivingWhatWasNotFedBackNamesWhatSleeps() async {
    let (store, _) = kettle()
    await store.send(.switchOn) { $0.on = true }
    store.expectEffects(["heat"])
    await withKnownIssue {
      await store.receive(.boiled)
    }
    await store.teardown()
  }
}
