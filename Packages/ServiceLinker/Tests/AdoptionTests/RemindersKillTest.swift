import Foundation
import Testing
import _ServiceLinkerTestSupport

/// The adopter's app on the durable store, SIGKILLed at random points 200
/// times while it sets reminders that ring at once and are shown through a
/// notifier outside the process (an outbox file). Then one run to the end:
/// every reminder a killed run acknowledged is in the state exactly once and
/// was shown, and no reminder was shown twice.
func killedAtRandomEveryAcknowledgedReminderIsKeptOnceAndShownOnce(app: URL, in folder: URL) throws {
  let journal = folder.appendingPathComponent("reminders.journal").path
  let outbox = folder.appendingPathComponent("outbox").path
  var generator = SeededGenerator(seed: 0x5EED_2026)
  var acknowledged: [String] = []
  var next = 0
  var kills = 0
  for _ in 0..<200 {
    let run = try launch(app, ["--journal", journal, "--outbox", outbox, "drive", "\(next)", "1000000"])
    usleep(UInt32.random(in: 0...60_000, using: &generator))
    kill(run.process.processIdentifier, SIGKILL)
    run.process.waitUntilExit()
    if run.process.terminationReason == .uncaughtSignal { kills += 1 }
    let acked = ackedTitles(run.output.fileHandleForReading.readDataToEndOfFile())
    acknowledged += acked
    next += acked.count
  }
  #expect(kills >= 200, "every run was killed, none ended on its own")

  #expect(acknowledged.count >= 50, "the killed runs acknowledged \(acknowledged.count) reminders")
  try runToTheEndAndExpectEachReminderOnce(app: app, journal: journal, outbox: outbox, acknowledged: acknowledged)
}

/// Runs `app` once more to the end (three reminders more), then checks its
/// state and its outbox: every reminder in `acknowledged` (and the three) is
/// in the state exactly once and was shown, and no reminder was shown twice.
func runToTheEndAndExpectEachReminderOnce(app: URL, journal: String, outbox: String, acknowledged: [String]) throws {
  let next = acknowledged.count
  var acknowledged = acknowledged
  let last = try launch(app, ["--journal", journal, "--outbox", outbox, "drive", "\(next)", "\(next + 3)"])
  last.process.waitUntilExit()
  let lastOutput = String(decoding: last.output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
  try #require(last.process.terminationStatus == 0 && lastOutput.hasSuffix("done\n"), "\(lastOutput)")
  acknowledged += ackedTitles(Data(lastOutput.utf8))

  let list = try launch(app, ["--journal", journal, "--outbox", outbox, "list"])
  list.process.waitUntilExit()
  let state = try #require(
    JSONSerialization.jsonObject(with: list.output.fileHandleForReading.readDataToEndOfFile()) as? [String: Any])
  let notified = try #require(state["notified"] as? [String])
  let rung = try #require(state["rung"] as? [String])
  let pending = try #require(state["pending"] as? [Any])
  #expect(pending.isEmpty)
  for title in acknowledged {
    #expect(notified.filter { $0 == title }.count == 1, "\(title) is shown once in the state")
  }
  #expect(Set(rung).count == rung.count && Set(notified).count == notified.count)
  #expect(Set(rung) == Set(notified))

  let shown = try String(contentsOfFile: outbox, encoding: .utf8).split(separator: "\n").map {
    String($0.split(separator: "\t").last ?? "")
  }
  #expect(Set(shown).count == shown.count, "no reminder was shown twice")
  #expect(Set(shown) == Set(notified), "what the notifier showed is what the state says it showed")
}

/// Starts `app` with `arguments`, its standard output in a pipe.
func launch(_ app: URL, _ arguments: [String]) throws -> (process: Process, output: Pipe) {
  let process = Process()
  process.executableURL = app
  process.arguments = arguments
  let output = Pipe()
  process.standardOutput = output
  process.standardError = FileHandle.nullDevice
  try process.run()
  return (process, output)
}

/// The titles of the `acked <title>` lines in `data`; a last line cut short is not one.
func ackedTitles(_ data: Data) -> [String] {
  String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).dropLast()
    .compactMap { $0.hasPrefix("acked ") ? String($0.dropFirst(6)) : nil }
}
