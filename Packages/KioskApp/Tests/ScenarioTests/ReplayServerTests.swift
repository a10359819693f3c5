import CanonicalJSON
import FeatureKit
import Foundation
import KioskApp
import KioskCommands
import KioskFeatures
import Menu
import ScenarioTesting
import Stock
import Tabs
import Testing

/// The replay server: in process over every recording, and as the built binary.
@Suite struct ReplayServerTests {
  /// Every step of every leaf, as `make record` would record it, through the
  /// registry: the same bytes. (From the leaves, not the files, which `make
  /// record` may be rewriting meanwhile; the leaf tests compare the files.)
  @MainActor @Test func theRegistryAnswersEveryLeafsStepsWithTheRecordedBytes() async throws {
    var steps = 0
    for leaf in allLeaves {
      let name = leaf.testDescription
      let recording = JSONCursor(try #require(await leaf.run()))
      var state = try recording.field("given").value
      let feature = try recording.field("feature").value
      for step in try recording.field("steps").array() {
        let request = JSONValue.object(["action": try step.field("action").value, "feature": feature, "state": state])
        let expected = JSONValue.object([
          "effects": try step.field("effects").value, "outcome": try step.field("outcome").value,
          "state": try step.field("state").value,
        ])
        let answer = KioskFeatures.registry.answer(toLine: Array(request.compactText.utf8))
        let label = try step.field("label").string()
        if answer != expected.compactText {
          let now = try JSONValue.parse(Array(answer.utf8))
          let difference = JSONDifference.first(between: expected, and: now)
          Issue.record(
            """
            \(name), step '\(label)': the registry's answer differs at \(difference?.path ?? "?"): \
            recorded \(difference?.recorded ?? "?"), answered \(difference?.now ?? "?")
            """)
        }
        state = try step.field("state").value
        steps += 1
      }
    }
    #expect(steps >= 25)
  }

  @Test(arguments: [
    ("{", ""),
    (#"{"feature":"tabs","state":{},"action":{},"extra":1}"#, ""),
    (#"{"feature":"coffee","state":{},"action":{}}"#, "feature"),
    (#"{"feature":"tabs","action":{"openTab":{"customer":"Ada"}}}"#, ""),
    (#"{"feature":"tabs","state":[],"action":{"openTab":{"customer":"Ada"}}}"#, "state"),
    (
      #"{"feature":"tabs","state":{"menu":{},"processor":{"entries":[],"fault":null,"session":"s"},"stock":{"mocha":1},"tabs":{"nextID":1,"open":{},"settled":{"count":0,"total":0}},"undo":[]},"action":{"openTab":{"customer":"Ada"}}}"#,
      "state.stock.mocha"
    ),
    (
      #"{"feature":"tabs","state":{"menu":{},"processor":{"entries":[],"fault":null,"session":"s"},"stock":{},"tabs":{"nextID":1,"open":{},"settled":{"count":0,"total":0}},"undo":[]},"action":{"fly":{}}}"#,
      "action"
    ),
    (
      #"{"feature":"tabs","state":{"menu":{},"processor":{"entries":[],"fault":null,"session":"s"},"stock":{},"tabs":{"nextID":1,"open":{},"settled":{"count":0,"total":0}},"undo":[]},"action":{"settle":{"key":"k","tab":1}}}"#,
      "action"
    ),
  ])
  func aMalformedRequestIsAnsweredWithAnErrorObject(request: String, path: String) throws {
    let answer = try JSONValue.parse(Array(KioskFeatures.registry.answer(toLine: Array(request.utf8)).utf8))
    guard case .object(let fields) = answer, case .object(let error)? = fields["error"], fields.count == 1 else {
      Issue.record("not an error object: \(answer.compactText)")
      return
    }
    #expect(error["path"] == .string(path))
    if case .string(let reason)? = error["reason"] { #expect(!reason.isEmpty) } else { Issue.record("no reason") }
  }

  @Test func aStateWhoseUndoHistoryDoesNotHoldTogetherIsAnErrorNotAnAnswerOutOfBounds() throws {
    var state = TillState(stock: StockState(units: [.milk: 10]))
    state.undo = [
      UndoHistory.Entry(record: .restocked(ingredient: .milk, count: 1_000), step: .unrestock(.milk, count: 1_000))
    ]
    let request = JSONValue.object([
      "action": .object(["undo": .object(["key": .string("k_1")])]), "feature": .string("undo"),
      "state": state.canonical,
    ])
    let answer = KioskFeatures.registry.answer(toLine: Array(request.compactText.utf8))
    #expect(
      answer
        == #"{"error":{"path":"state","reason":"the request's state does not hold together: after this step, "#
        + #"state.stock.milk: expected a whole number from 0 to 1000000000, found -990"}}"#)
  }

  @Test func aTabLineNotOnTheMenuIsRefusedWithItsPath() throws {
    let state = TillState(tabs: TabsState(open: [ada: tab("Ada", [Item.ID(raw: 7)])], nextID: 2))
    let request = JSONValue.object([
      "action": .object(["settle": .object(["key": .string("k_1"), "tab": .integer(1)])]),
      "feature": .string("settle"), "state": state.canonical,
    ])
    #expect(
      KioskFeatures.registry.answer(toLine: Array(request.compactText.utf8))
        == #"{"error":{"path":"state.tabs.open.1.lines[0]","reason":"item 7 is not on the menu"}}"#)
  }

  @Test(arguments: ["é", "k 1", "", String(repeating: "k", count: 101)])
  func anIdempotencyKeyOutsideItsAlphabetIsRefused(key: String) {
    let request = JSONValue.object([
      "action": .object(["undo": .object(["key": .string(key)])]), "feature": .string("undo"),
      "state": TillState().canonical,
    ])
    #expect(
      KioskFeatures.registry.answer(toLine: Array(request.compactText.utf8)).hasPrefix(
        #"{"error":{"path":"action.undo.key""#))
  }

  @Test func theBinaryAnswersLineByLineAndKeepsGoingAfterABadRequest() throws {
    let binary = repositoryRoot.appendingPathComponent(".build/debug/kiosk-replay")
    try #require(FileManager.default.isExecutableFile(atPath: binary.path), "build kiosk-replay first")
    let opened = TillState().canonical
    let good = JSONValue.object([
      "action": .object(["openTab": .object(["customer": .string("Ada")])]), "feature": .string("tabs"),
      "state": opened,
    ]).compactText
    let process = Process()
    process.executableURL = binary
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    input.fileHandleForWriting.write(Data("not json\n\n\(good)\n".utf8))
    try input.fileHandleForWriting.close()
    let answers = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    let lines = answers.split(separator: "\n")
    #expect(process.terminationStatus == 0)
    #expect(lines.count == 2, "one answer per request; the blank line is skipped")
    #expect(lines.first?.hasPrefix(#"{"error":{"path":"","reason":"not JSON"#) == true)
    #expect(lines.last?.contains(#""journaled":{"opened":{"customer":"Ada","tab":1}}"#) == true)
  }

  @Test func theBinaryRefusesArgumentsWithAUsageLine() throws {
    let process = Process()
    process.executableURL = repositoryRoot.appendingPathComponent(".build/debug/kiosk-replay")
    process.arguments = ["--serve"]
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = Pipe()
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 2)
    let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    #expect(text.hasPrefix("kiosk-replay: takes no arguments\nusage: kiosk-replay"))
  }
}
