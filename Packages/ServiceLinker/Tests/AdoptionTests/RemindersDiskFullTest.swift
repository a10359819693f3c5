import Foundation
import Testing

/// The adopter's app on the durable store runs out of room: it sets reminders
/// with its files capped at 32 KiB (`ulimit -f`, SIGXFSZ ignored, so a write
/// past the cap fails with EFBIG as a full disk fails with ENOSPC) until a
/// step cannot be journaled. It must say so and exit 74, and acknowledge
/// nothing it did not sync. Then, with room again, one run to the end: every
/// reminder acknowledged before the disk filled is kept once and shown once.
func whenItsDiskFillsEveryAcknowledgedReminderIsKeptOnceAndTheJournalOpensAgain(app: URL, in folder: URL) throws {
  try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  let journal = folder.appendingPathComponent("reminders.journal").path
  let outbox = folder.appendingPathComponent("outbox").path
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/bin/sh")
  // 64 blocks of 512 bytes.
  process.arguments = [
    "-c", #"trap '' XFSZ; ulimit -f 64; exec "$0" "$@""#, app.path, "--journal", journal, "--outbox", outbox,
    "drive", "0", "1000000",
  ]
  let output = Pipe()
  let errors = Pipe()
  process.standardOutput = output
  process.standardError = errors
  try process.run()
  let printed = output.fileHandleForReading.readDataToEndOfFile()
  let complaint = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
  process.waitUntilExit()
  #expect(process.terminationReason == .exit && process.terminationStatus == 74, "\(complaint)")
  #expect(complaint.hasPrefix("reminders: "), "one line saying why: \(complaint)")
  #expect(complaint.contains("file too large"), "the cause, EFBIG, is named: \(complaint)")
  #expect(complaint.split(separator: "\n").count == 1, "\(complaint)")
  let acknowledged = ackedTitles(printed)
  #expect(acknowledged.count >= 20, "the run acknowledged \(acknowledged.count) reminders before the disk filled")
  let size = (try FileManager.default.attributesOfItem(atPath: journal)[.size] as? Int) ?? 0
  #expect(size <= 32_768, "the journal stayed within the cap: \(size) bytes")

  try runToTheEndAndExpectEachReminderOnce(app: app, journal: journal, outbox: outbox, acknowledged: acknowledged)
}
