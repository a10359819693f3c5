import FeatureKit
import FeatureTesting
import Foundation
import Reminders
import ScenarioTesting
import Testing
import VirtualTime

/// The recordings beside the package: `Recordings/<feature>/<fixture>.json`.
let recordings = RecordingStore(
  root: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Recordings"))

@MainActor @Suite struct RemindersTests {
  @Test func aReminderRingsWhenItsTimeComesOnVirtualTime() async {
    let clock = TestClock()
    let store = TestStore(Reminders.self, state: .init(), environment: .init(clock: clock), clock: clock)
    await store.send(.set(title: "tea", seconds: 180)) { $0.pending = ["tea"] }
    store.expectEffects(["reminder tea"])
    await store.advance(by: .seconds(179))
    await store.advance(by: .seconds(1))
    await store.receive(.ring(title: "tea")) {
      $0.pending = []
      $0.rung = ["tea"]
    }
    await store.finish()
  }

  @Test func aDismissedReminderNeverRings() async {
    let clock = TestClock()
    let store = TestStore(Reminders.self, state: .init(), environment: .init(clock: clock), clock: clock)
    await store.send(.set(title: "tea", seconds: 180)) { $0.pending = ["tea"] }
    await store.send(.dismiss(title: "tea")) { $0.pending = [] }
    store.expectEffects(["reminder tea", "reminder tea"])
    await store.advance(by: .seconds(600))
    await store.finish()
  }

  static let scenario = Scenario(
    Reminders.feature, "a reminder for tea", description: "It rings after its delay, once.",
    environment: Reminders.Environment.init(clock:)
  ) {
    Given(Reminders.State())
    When("tea in three minutes", .set(title: "tea", seconds: 180))
    Then("it is pending") { $0.pending == ["tea"] }
    Advance("three minutes", by: .seconds(180))
    Then("it rang") { $0.rung == ["tea"] && $0.pending.isEmpty }
    ThenEffects("the user was notified") { $0 == [Reminders.Effect(notified: "tea")] }
  }

  @Test func theScenarioMatchesItsRecording() async {
    for leaf in Self.scenario.leaves { await recordings.check(leaf) }
  }
}
