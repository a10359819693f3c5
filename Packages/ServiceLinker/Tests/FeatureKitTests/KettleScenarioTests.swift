import CanonicalJSON
import FeatureKit
import Foundation
import ScenarioTesting
import Testing
import VirtualTime

/// Scenarios with time in them: `Advance` moves each leaf's own clock, and
/// what work feeds back is recorded as steps of its own.
@MainActor @Suite struct KettleScenarioTests {
  static let scenario = Scenario(
    Kettle.brewing, "a kettle switched on", description: "It boils three seconds later unless switched off.",
    environment: Kettle.Environment.init(clock:)
  ) {
    Given(Kettle.State())
    When("it is switched on", .switchOn)
    Then("it is on") { $0.on }
    Branch("three seconds pass") {
      Advance("three seconds", by: .seconds(3))
      Then("it boiled once and is off") { $0.boiled == 1 && !$0.on }
      ThenOutcome("nothing was refused") { $0.refused == nil }
    }
    Branch("it is switched off first") {
      When("it is switched off", .switchOff)
      Advance("a minute", by: .seconds(60))
      Then("it never boiled") { $0.boiled == 0 }
    }
  }

  @Test func whatWorkFeedsBackIsRecordedAsAStepOfItsOwn() async throws {
    let recording = try #require(await Self.scenario.leaves[0].run())
    guard case .object(let members) = recording, case .array(let steps)? = members["steps"] else {
      Issue.record("not a recording")
      return
    }
    #expect(steps.count == 2)
    guard case .object(let fedBack) = steps[1] else { return }
    #expect(fedBack["action"] == Kettle.Action.boiled.canonical)
    #expect(fedBack["received"] == .bool(true))
    #expect(fedBack["label"] == .string("fed back: boiled (after 'three seconds')"))
    #expect(fedBack["state"] == Kettle.State(on: false, boiled: 1).canonical)
  }

  @Test func aRecordedFedBackStepReplaysAsARequest() async throws {
    let recording = try #require(await Self.scenario.leaves[0].run())
    guard case .object(let members) = recording, case .array(let steps)? = members["steps"],
      case .object(let first) = steps[0], case .object(let second) = steps[1]
    else { return }
    let registry = ReplayRegistry([.feature(Kettle.brewing)])
    let request = JSONValue.object([
      "action": second["action"]!, "feature": .string("brewing"), "state": first["state"]!,
    ])
    let expected = JSONValue.object(
      ["effects": second["effects"]!, "outcome": second["outcome"]!, "state": second["state"]!])
    #expect(registry.answer(toLine: Array(request.compactText.utf8)) == expected.compactText)
  }

  @Test func workLeftInFlightAtTheEndOfALeafIsReported() async {
    let unfinished = Scenario(
      Kettle.brewing, "left heating", description: "No Advance lets the work finish.",
      environment: Kettle.Environment.init(clock:)
    ) {
      Given(Kettle.State())
      When("it is switched on", .switchOn)
    }
    await withKnownIssue {
      #expect(await unfinished.leaves[0].run() == nil)
    }
  }
}
