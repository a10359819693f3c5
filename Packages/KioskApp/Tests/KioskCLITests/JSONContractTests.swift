import Foundation
import Testing

/// The `--json` output of every command is a contract (docs/cli.md): one golden
/// file per command under `Golden/`, with the values that differ run to run
/// (times, processor references, keys, digests, paths) replaced by
/// placeholders. Re-record after an intended change with
/// `KIOSK_RECORD=1 make test`, and review the diff like any other change.
@Test func everyCommandsJsonMatchesItsGoldenFile() throws {
  let journal = try TemporaryJournal()
  let kiosk = KioskBinary(journal: journal.path)
  var outputs: [(String, String)] = []
  func record(_ name: String, _ arguments: String..., input: String = "") throws {
    let run = try kiosk.run(["--journal", journal.path, "--json"] + arguments, input: input)
    outputs.append((name, normalized(run.output + run.errors, journal: journal.path)))
  }
  try record("menu", "menu")
  try record("stock", "stock")
  try record("restock", "restock", "milk", "5")
  try record("open", "open", "Ada")
  try record("add", "add", "1", "latte")
  try record("remove", "remove", "1", "latte")
  _ = try kiosk("add", "1", "espresso")
  try record("settle", "settle", "1")
  try record("board", "board")
  try record("board-all", "board", "--all")
  try record("undo", "undo")
  try record("history", "history")
  try record("verify", "verify")
  try record("reconcile", "reconcile")
  try record("repair", "repair")
  try record("help", "help", "add")
  try record("shell", "shell", input: "open Grace\nsettle 9\n")
  try record("error", "settle", "42")
  _ = try kiosk("settle", "1")
  try record("close-day", "close-day")
  try record("history-all", "history", "--all")
  try record("verify-all", "verify", "--all")
  let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")
  if ProcessInfo.processInfo.environment["KIOSK_RECORD"] == "1" {
    try FileManager.default.createDirectory(at: golden, withIntermediateDirectories: true)
    for (name, text) in outputs { try Data(text.utf8).write(to: golden.appendingPathComponent("\(name).json")) }
    return
  }
  let recorded = try FileManager.default.contentsOfDirectory(atPath: golden.path)
  #expect(Set(recorded) == Set(outputs.map { "\($0.0).json" }), "one golden file per command")
  for (name, text) in outputs {
    let expected = FileManager.default.contents(atPath: golden.appendingPathComponent("\(name).json").path)
      .map { String(decoding: $0, as: UTF8.self) }
    #expect(expected == text, "kiosk --json \(name) differs from Golden/\(name).json (KIOSK_RECORD=1 re-records)")
  }
}

/// Replaces what changes from run to run with stable placeholders.
func normalized(_ text: String, journal: String) -> String {
  var text = text.replacingOccurrences(of: journal, with: "<journal>")
  for (pattern, placeholder) in [
    (#"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"#, "<time>"), (#"(ch|re)_[0-9a-f]+_(\d+)"#, "$1_<processor>_$2"),
    (#"k_[0-9a-f]{16}_"#, "k_<salt>_"), (#"crc32c:[0-9a-f]{8}"#, "crc32c:<digest>"),
  ] {
    text = text.replacingOccurrences(of: pattern, with: placeholder, options: .regularExpression)
  }
  return text
}

/// The README's command table is `kiosk help`, row for row.
@Test func theReadmeCommandTableIsWhatKioskHelpSays() throws {
  let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
    "../../../../README.md"
  ).standardized
  let text = try String(contentsOf: readme, encoding: .utf8)
  let table = text.components(separatedBy: "| command | what it does |\n|---|---|\n")[1]
    .components(separatedBy: "\n\n")[0].split(separator: "\n").map(String.init)
  let help = try KioskBinary(journal: "/nonexistent").run(["--json", "help"]).output
  struct Help: Decodable {
    struct Entry: Decodable {
      var usage: String
      var summary: String
    }
    var commands: [Entry]
  }
  let commands = try JSONDecoder().decode(Help.self, from: Data(help.utf8)).commands
  #expect(table == commands.map { "| `\($0.usage)` | \($0.summary) |" })
}
