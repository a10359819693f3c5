import CanonicalJSON
import DurableStore
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
    await store.send(.set(title: "tea", seconds: 180)) { $0.pending = [.init(title: "tea", seconds: 180)] }
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
    await store.send(.set(title: "tea", seconds: 180)) { $0.pending = [.init(title: "tea", seconds: 180)] }
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
    Then("it is pending") { $0.pending.map(\.title) == ["tea"] }
    Advance("three minutes", by: .seconds(180))
    Then("it rang") { $0.rung == ["tea"] && $0.pending.isEmpty }
    ThenEffects("the user was notified") { $0 == [Reminders.Effect(notified: "tea")] }
  }

  @Test func aDurableReminderIsShownOnceAndSurvivesOpeningAgain() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reminders-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let journal = folder.appendingPathComponent("reminders.journal").path
    let notifier = OutboxNotifier(path: folder.appendingPathComponent("outbox").path)
    let clock = TestClock()
    let environment = Reminders.Environment(clock: clock, notifier: notifier)
    var store: DurableStore<Reminders>? = try DurableStore<Reminders>.open(
      at: journal, initial: .init(), environment: environment, clock: clock)
    try store?.send(.set(title: "tea", seconds: 180))
    try store?.send(.set(title: "cake", seconds: 60))
    // Refused, so not journaled and not on the undo stack: undo takes back the cake.
    let again = try store?.send(.set(title: "tea", seconds: 5))
    #expect(again?.outcome.refused == "'tea' is already set")
    try store?.undo()
    #expect(store?.state.pending == [.init(title: "tea", seconds: 180)])
    // The timer runs off the main actor: let it reach its sleep before time moves.
    var yields = 0
    while !clock.sleepers.contains(where: { $0.label == "timers" }) && yields < 100_000 {
      await Task.yield()
      yields += 1
    }
    await clock.advance(by: .seconds(180))
    await store?.finish()
    #expect(store?.state.notified == ["tea"])
    store = nil
    let reopened = try DurableStore<Reminders>.open(
      at: journal, initial: .init(), environment: environment, clock: clock)
    await reopened.finish()
    #expect(reopened.state == Reminders.State(rung: ["tea"], notified: ["tea"]))
    #expect(try notifier.lines().map(\.title) == ["tea"])
  }

  @Test func everyActionWrittenByHandIsItsCanonicalText() {
    let texts = ["tea", "", "a \"quoted\" \\ line\n\t\u{01}", "é☕/😀"]
    for title in texts {
      for other in texts {
        let actions: [Reminders.Action] = [
          .set(title: title, seconds: 180), .set(title: other, seconds: -7), .dismiss(title: title),
          .ring(title: title), .notified(title: title), .notDelivered(title: title, reason: other),
        ]
        for action in actions {
          var written: [UInt8] = []
          action.writeCanonical(to: &written)
          #expect(written == action.canonical.compactBytes, "\(action)")
        }
      }
    }
  }

  @Test func theScenarioMatchesItsRecording() async {
    for leaf in Self.scenario.leaves { await recordings.check(leaf) }
  }
}
