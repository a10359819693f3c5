import Foundation
import Testing
import _ServiceLinkerTestSupport

/// Tokens a hurried or hostile user might type.
let fuzzTokens = [
  "menu", "stock", "board", "history", "verify", "reconcile", "open", "add", "remove", "settle", "undo", "restock",
  "help", "repair", "frobnicate", "--json", "--help", "-h", "--", "--wait", "--wait=0", "--bogus", "-x", "1", "2", "#1",
  "0", "-1", "9223372036854775807", "99999999999999999999", "latte", "Oat Latte", "cold brew", "mocha", "milk", "cup",
  "oatMilk", "Ada", "", "   ", "Zoë", "名前", "\u{1B}[2J", "a\nb", "tab\there", "\u{202E}evil", "\u{0}nul",
  String(repeating: "x", count: 300), "🙂", "1e9", "0x10", "#", "-",
]

/// Random argument vectors and random shell lines against the real binary:
/// every run ends with a documented status (never a signal, never 70), and a
/// refused command leaves the journal's bytes as they were.
@Test func randomCommandLinesAlwaysEndWithADocumentedStatusAndRefusalsChangeNothing() throws {
  let seed =
    ProcessInfo.processInfo.environment["KIOSK_FUZZ_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 0...UInt64.max)
  var random = SeededGenerator(seed: seed)
  let journal = try TemporaryJournal()
  let kiosk = KioskBinary(journal: journal.path)
  _ = try kiosk("open", "Ada")
  _ = try kiosk("add", "1", "latte")
  let documented: Set<Int32> = [0, 64, 65, 74, 75]
  for round in 0..<150 {
    let count = Int.random(in: 0...5, using: &random)
    let arguments = (0..<count).map { _ in fuzzTokens.randomElement(using: &random)! }
    let before = journal.bytes
    let run = try kiosk.run(["--journal", journal.path] + arguments)
    let context = "seed \(seed), round \(round): kiosk \(arguments.map { "'\($0)'" }.joined(separator: " "))"
    #expect(documented.contains(run.status), "\(context) exited \(run.status): \(run.errors)")
    #expect(!run.errors.contains("Fatal error"), "\(context): \(run.errors)")
    if run.status != 0 && !run.errors.contains("payment declined") {
      #expect(journal.bytes == before, "\(context) was refused (\(run.status)) but changed the journal")
    }
  }
  let lines = (0..<300).map { _ in
    (0..<Int.random(in: 0...4, using: &random)).map { _ in fuzzTokens.randomElement(using: &random)! }
      .joined(separator: " ")
  }
  let shell = try kiosk("shell", input: lines.joined(separator: "\n") + "\n")
  #expect(documented.contains(shell.status), "seed \(seed): the shell exited \(shell.status): \(shell.errors)")
  #expect(try kiosk("verify").status == 0, "seed \(seed)")
  #expect(try kiosk("reconcile").status == 0, "seed \(seed)")
}
