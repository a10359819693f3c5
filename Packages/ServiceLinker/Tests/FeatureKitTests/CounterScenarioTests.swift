import CanonicalJSON
import FeatureKit
import Foundation
import ScenarioTesting
import Testing

/// The scenario DSL and its recordings on a feature of no app's.
@Suite struct CounterScenarioTests {
  static let scenario = Scenario(Counter.resetting, "a counter at two", description: "Reset logs what it threw away.") {
    Given(Counter.State(count: 2, log: []))
    When("it is incremented", .increment)
    Then("it counts three") { $0.count == 3 }
    Branch("then reset") {
      When("it is reset", .reset)
      Then("it counts zero") { $0.count == 0 }
      ThenEffects("one line logged") { $0 == [Counter.Effect(logged: "reset from 3")] }
    }
    Branch("then incremented again") {
      When("it is incremented again", .increment)
      Then("it counts four") { $0.count == 4 }
    }
  }

  @Test func eachBranchIsALeafWithItsOwnFixture() {
    #expect(
      Self.scenario.leaves.map(\.fixture) == ["a-counter-at-two.then-reset", "a-counter-at-two.then-incremented-again"])
  }

  @MainActor @Test func aLeafIsRecordedThenComparedWithItsRecording() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("counter-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let leaf = Self.scenario.leaves[0]
    await RecordingStore(root: folder, isRecording: true).check(leaf)
    let url = RecordingStore(root: folder).url(feature: "resetting", fixture: leaf.fixture)
    let recording = try JSONValue.parse(try Data(contentsOf: url))
    guard case .object(let members) = recording, case .array(let steps)? = members["steps"] else {
      Issue.record("not a recording: \(recording.compactText)")
      return
    }
    #expect(steps.count == 2)
    #expect(members["given"] == Counter.State(count: 2, log: []).canonical)
    // Compared, not rewritten: the same run matches it.
    await RecordingStore(root: folder, isRecording: false).check(leaf)
  }
}
