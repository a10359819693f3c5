import CanonicalJSON
import Foundation
import KioskApp
import KioskFeatures
import ScenarioTesting
import Stock
import Tabs
import Testing

/// The scenario library itself: leaves, checks that fail where they are
/// written, and drift from a recording reported with its path.
@MainActor @Suite struct ScenarioDSLTests {
  private let branching = Scenario(KioskFeatures.tabs, "two ways", description: "A shared step, then two branches.") {
    Given(tabs: TabsState(), stock: StockState())
    When("Ada opens a tab", .openTab(customer: "Ada"))
    Branch("Bo too") {
      When("Bo opens a tab", .openTab(customer: "Bo"))
      Branch("and Cy") { When("Cy opens a tab", .openTab(customer: "Cy")) }
      Branch("and Di") { When("Di opens a tab", .openTab(customer: "Di")) }
    }
    Branch("alone") { Then("one tab") { $0.tabs.open.count == 1 } }
  }

  @Test func eachPathToABranchWithNoneInsideIsALeafNamedByItsLabels() async {
    #expect(
      branching.leaves.map(\.label) == ["two ways › Bo too › and Cy", "two ways › Bo too › and Di", "two ways › alone"])
    #expect(branching.leaves.map(\.fixture) == ["two-ways.bo-too.and-cy", "two-ways.bo-too.and-di", "two-ways.alone"])
  }

  @Test func aLeafRunsTheSharedStepsThenItsOwn() async throws {
    let recording = try #require(await branching.leaves[0].run())
    guard case .object(let fields) = recording, case .array(let steps)? = fields["steps"] else {
      Issue.record("not a recording: \(recording.compactText)")
      return
    }
    #expect(steps.count == 3)
    #expect(fields["leaf"] == .string("two ways › Bo too › and Cy"))
  }

  @Test func aFailingThenIsReportedAtItsOwnLine() async {
    let line = #line + 4
    let scenario = Scenario(KioskFeatures.tabs, "wrong", description: "A check that does not hold.") {
      Given(tabs: TabsState(), stock: StockState())
      When("Ada opens a tab", .openTab(customer: "Ada"))
      Then("there are two tabs") { $0.tabs.open.count == 2 }
    }
    await withKnownIssue {
      #expect(await scenario.leaves[0].run() == nil, "a leaf whose check fails records nothing")
    } matching: { issue in
      issue.sourceLocation?.line == line
        && issue.comments.contains {
          $0.rawValue.contains("Then 'there are two tabs' does not hold after 'Ada opens a tab'")
        }
    }
  }

  @Test func anActionTheFeatureDoesNotTakeIsReportedAtItsWhen() async {
    let line = #line + 3
    let scenario = Scenario(KioskFeatures.settle, "out of scope", description: "settle takes settle only.") {
      Given(tabs: TabsState(), stock: StockState())
      When("Ada opens a tab", .openTab(customer: "Ada"))
    }
    await withKnownIssue {
      _ = await scenario.leaves[0].run()
    } matching: { issue in
      issue.sourceLocation?.line == line
        && issue.comments.contains { $0.rawValue.contains("feature 'settle' takes settle; not 'openTab'") }
    }
  }

  /// Runs the only leaf of `scenario` and expects exactly one issue, saying `message`, at `line`.
  private func expectProblem(_ message: String, atLine line: Int, in scenario: Scenario<KioskModel>) async {
    await withKnownIssue {
      #expect(await scenario.leaves.first?.run() == nil, "a misshapen leaf records nothing")
    } matching: { issue in
      issue.sourceLocation?.line == line && issue.comments.contains { $0.rawValue.contains(message) }
    }
  }

  @Test func aSecondGivenIsReportedWhereItIs() async {
    let line = #line + 4
    let scenario = Scenario(KioskFeatures.tabs, "two givens", description: "One too many.") {
      Given(tabs: TabsState(), stock: StockState())
      When("Ada opens a tab", .openTab(customer: "Ada"))
      Given(tabs: TabsState(), stock: StockState())
    }
    await expectProblem("a scenario has one Given", atLine: line, in: scenario)
  }

  @Test func aGivenInsideABranchIsReportedNotIgnored() async {
    let line = #line + 5
    let scenario = Scenario(KioskFeatures.tabs, "given in a branch", description: "Branches share the Given.") {
      Given(tabs: TabsState(), stock: StockState())
      When("Ada opens a tab", .openTab(customer: "Ada"))
      Branch("elsewhere") {
        Given(tabs: TabsState(open: [ada: tab("Ada", [])], nextID: 2), stock: StockState())
        When("Bo opens a tab", .openTab(customer: "Bo"))
      }
    }
    await expectProblem("a Given goes first, outside any Branch", atLine: line, in: scenario)
  }

  @Test func aThenBeforeAnyWhenIsReportedWhereItIs() async {
    let line = #line + 3
    let scenario = Scenario(KioskFeatures.tabs, "then first", description: "Nothing to check yet.") {
      Given(tabs: TabsState(), stock: StockState())
      Then("before any step") { _ in true }
      When("Ada opens a tab", .openTab(customer: "Ada"))
    }
    await expectProblem("a Then checks the step before it", atLine: line, in: scenario)
  }

  @Test func aStepAfterABranchIsReportedWhereItIs() async {
    let line = #line + 4
    let scenario = Scenario(KioskFeatures.tabs, "after a branch", description: "Steps go inside branches.") {
      Given(tabs: TabsState(), stock: StockState())
      Branch("one") { When("Ada opens a tab", .openTab(customer: "Ada")) }
      When("after a branch", .openTab(customer: "Bo"))
    }
    await expectProblem("only branches may follow a Branch", atLine: line, in: scenario)
  }

  @Test func labelsBecomeASCIISlugsAndALabelWithoutAnyIsReported() async {
    let scenario = Scenario(KioskFeatures.tabs, "Café ½ İstanbul: the processorʼs day", description: "Names.") {
      Given(tabs: TabsState(), stock: StockState())
      When("Ada opens a tab", .openTab(customer: "Ada"))
      Branch("…") { When("Bo opens a tab", .openTab(customer: "Bo")) }
    }
    #expect(scenario.leaves.first?.fixture == "caf-i-stanbul-the-processors-day.")
    await expectProblem("'…' gives no fixture name", atLine: scenario.location.line, in: scenario)
  }

  @Test func driftIsReportedWithThePathTheValuesTheStepsLineAndMakeRecord() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("scenario-drift-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let store = RecordingStore(root: folder.appendingPathComponent("Tests/Recordings"), isRecording: false)
    let leaf = branching.leaves[2]
    let recording = try #require(await leaf.run())
    // The recording says Ada's tab went to "Eve": as if the code had changed since `make record`.
    let edited = recording.prettyText.replacingOccurrences(of: "\"customer\": \"Ada\"", with: "\"customer\": \"Eve\"")
    let url = store.url(feature: "tabs", fixture: leaf.fixture)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(edited.utf8).write(to: url)
    await withKnownIssue {
      await store.check(leaf)
    } matching: { issue in
      issue.comments.contains {
        $0.rawValue.contains("tabs: two ways › alone drifted from")
          && $0.rawValue.contains("at steps[0].action.openTab.customer: recorded \"Eve\", now \"Ada\"")
          && $0.rawValue.contains("run `make record`")
      }
    }
  }

  @Test func aRecordingLaidOutOtherwiseIsNotInCanonicalForm() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("scenario-layout-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let store = RecordingStore(root: folder.appendingPathComponent("Tests/Recordings"), isRecording: false)
    let leaf = branching.leaves[2]
    let url = store.url(feature: "tabs", fixture: leaf.fixture)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data((try #require(await leaf.run())).compactText.utf8).write(to: url)
    await withKnownIssue {
      await store.check(leaf)
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("is not in canonical form (docs/replay.md); run `make record`") }
    }
  }

  @Test func aMissingRecordingNamesMakeRecordAndRecordingWritesIt() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("scenario-record-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let root = folder.appendingPathComponent("Tests/Recordings")
    let leaf = branching.leaves[2]
    await withKnownIssue {
      await RecordingStore(root: root, isRecording: false).check(leaf)
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("has no recording at") && $0.rawValue.contains("make record") }
    }
    await RecordingStore(root: root, isRecording: true).check(leaf)
    await RecordingStore(root: root, isRecording: false).check(leaf)
    let text = try String(contentsOf: root.appendingPathComponent("tabs/two-ways.alone.json"), encoding: .utf8)
    #expect(text.hasSuffix("}\n"))
  }
}
