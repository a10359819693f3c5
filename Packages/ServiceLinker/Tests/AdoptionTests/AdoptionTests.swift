import Foundation
import Testing
import _ServiceLinkerTestSupport

extension Tag {
  /// Tests that run a whole SwiftPM build of another package: slow, so
  /// `make test-fast` skips them (`SKIP_NESTED_BUILDS=1`).
  @Tag static var nestedBuild: Tag
}

/// Whether this run builds nested packages (`make test`) or skips them (`make test-fast`).
let nestedBuildsEnabled = ProcessInfo.processInfo.environment["SKIP_NESTED_BUILDS"].map { $0.isEmpty } ?? true

/// The framework's own folder, from this file's path.
let frameworkRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent()

/// An app outside this repository adopts the framework: `Examples/Reminders`,
/// copied to a temporary folder and pointed at the framework by absolute path,
/// builds, records its scenario, passes its tests on virtual time and its
/// replay lane, with none of the framework's code copied into it.
@Suite(
  .tags(.nestedBuild),
  .enabled(if: nestedBuildsEnabled, "SKIP_NESTED_BUILDS is set: make test-fast skips SwiftPM builds"))
struct AdoptionTests {
  @Test func aPackageOutsideTheRepositoryRecordsItsScenarioPassesItsTestsAndItsReplayLane() throws {
    let example = frameworkRoot.appendingPathComponent("Examples/Reminders")
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("adopter-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    for item in ["Package.swift", "Sources", "Tests"] {
      try FileManager.default.copyItem(
        at: example.appendingPathComponent(item), to: folder.appendingPathComponent(item))
    }
    let manifest = folder.appendingPathComponent("Package.swift")
    let text = try String(contentsOf: manifest, encoding: .utf8)
    try text.replacingOccurrences(of: #".package(path: "../..")"#, with: ".package(path: \"\(frameworkRoot.path)\")")
      .write(to: manifest, atomically: true, encoding: .utf8)

    let build = try run("swift", "build", "--build-tests", in: folder)
    try #require(build.status == 0, "the adopter's package does not build:\n\(build.output)")

    // No recording yet: the leaf says so, then `RECORD_SCENARIOS=1` writes it.
    let missing = try run("swift", "test", "--skip-build", in: folder)
    #expect(missing.status != 0)
    #expect(missing.output.contains("has no recording at"), "\(missing.output)")
    let record = try run("swift", "test", "--skip-build", environment: ["RECORD_SCENARIOS": "1"], in: folder)
    #expect(record.status == 0, "\(record.output)")
    let recorded = try Data(contentsOf: folder.appendingPathComponent("Recordings/reminders/a-reminder-for-tea.json"))
    let committed = try Data(contentsOf: example.appendingPathComponent("Recordings/reminders/a-reminder-for-tea.json"))
    #expect(recorded == committed, "the same scenario records the same bytes")

    let test = try run("swift", "test", "--skip-build", in: folder)
    #expect(test.status == 0, "\(test.output)")
    #expect(test.output.contains("Test run with 5 tests"), "\(test.output)")

    let lane = try run(
      "python3", frameworkRoot.appendingPathComponent("Tools/replay_lane.py").path, "--server",
      ".build/debug/reminders-replay", "--recordings", "Recordings", in: folder)
    #expect(lane.status == 0, "\(lane.output)")
    #expect(lane.output.contains("1 recordings, 2 steps sent: 1 passed, 0 failed"), "\(lane.output)")

    try killedAtRandomEveryAcknowledgedReminderIsKeptOnceAndShownOnce(
      app: folder.appendingPathComponent(".build/debug/reminders"), in: folder)
    try whenItsDiskFillsEveryAcknowledgedReminderIsKeptOnceAndTheJournalOpensAgain(
      app: folder.appendingPathComponent(".build/debug/reminders"), in: folder.appendingPathComponent("full"))
  }

  func run(_ arguments: String..., environment: [String: String] = [:], in folder: URL) throws -> (
    status: Int32, output: String
  ) {
    try Subprocess.run(arguments, in: folder, environment: environment)
  }
}
