import Foundation
import Testing

@Test func aWholeDayAcrossSeparateInvocations() throws {
  let journal = try TemporaryJournal()
  let kiosk = KioskBinary(journal: journal.path)

  let menu = try kiosk("menu")
  #expect(menu.status == 0)
  #expect(menu.lines.first == "ID  NAME        PRICE  AVAILABLE")
  #expect(menu.lines.contains("1   Latte       4.50   yes"))
  #expect(try kiosk("open", "Ada").output == "opened tab #1 for Ada\n")
  #expect(try kiosk("add", "1", "latte").output == "added Latte to tab #1 (Ada): 1 item\n")
  #expect(try kiosk("add", "#1", "4").output == "added Espresso to tab #1 (Ada): 2 items\n")
  #expect(try kiosk("open", "Grace", "Hopper").output == "opened tab #2 for Grace Hopper\n")
  #expect(try kiosk("add", "2", "Oat", "Latte").status == 0)

  let receipt = try kiosk("settle", "1")
  #expect(receipt.status == 0)
  #expect(receipt.lines[0] == "receipt for tab #1 (Ada)")
  #expect(receipt.lines[1].hasPrefix("  Latte ") && receipt.lines[1].hasSuffix(" 4.50"))
  #expect(receipt.lines.contains { $0.hasPrefix("  total ") && $0.hasSuffix(" 7.50") })
  #expect(receipt.lines.contains { $0.hasPrefix("  reference ") && $0.contains("ch_") })

  #expect(
    try kiosk("board").output
      == "#2 Grace Hopper: Oat Latte — 5.00\nsettled: 1 tab, 7.50 ('kiosk board --all' lists them)\n")
  #expect(
    try kiosk("board", "--all").output
      == "#1 Ada: Latte, Espresso — 7.50 (settled)\n#2 Grace Hopper: Oat Latte — 5.00\n")
  let undo = try kiosk("undo")
  #expect(undo.status == 0)
  #expect(undo.output.hasPrefix("undid: settle tab #1: 7.50 as ch_"))
  #expect(undo.output.contains("; refunded as re_"))
  #expect(try kiosk("board").output == "#1 Ada: Latte, Espresso — 7.50\n#2 Grace Hopper: Oat Latte — 5.00\n")
  #expect(try kiosk("restock", "milk", "10").output == "restocked milk: +10, now 40\n")
  #expect(try kiosk("stock").lines.contains("milk        40"))

  let history = try kiosk("history")
  #expect(history.lines.count == 11)
  #expect(history.lines[0] == "1  initialized: 5 menu items, 142 units of stock")
  #expect(history.lines[6].hasPrefix("7  charge intent for tab #1: 7.50 under k_"))
  #expect(history.lines[8].hasPrefix("9  refund intent for tab #1: 7.50 under k_"))
  #expect(history.lines[10] == "11  restock milk +10")
  let verify = try kiosk("verify")
  #expect(verify.status == 0)
  #expect(
    verify.output.hasPrefix(
      "verified 11 records (0 checkpoints checked against the replay): two replays are byte-identical, state crc32c:"))
  #expect(verify.output.hasSuffix("the processor agrees (1 charges, 1 refunds)\n"))
  #expect(try kiosk("reconcile").status == 0)
}

/// A journal with a little history, and its bytes.
func preparedJournal() throws -> (TemporaryJournal, KioskBinary, Data) {
  let journal = try TemporaryJournal()
  let kiosk = KioskBinary(journal: journal.path, owner: journal)
  _ = try kiosk("open", "Ada")
  _ = try kiosk("add", "1", "espresso")
  _ = try kiosk("open", "Bob")
  _ = try kiosk("add", "2", "latte")
  _ = try kiosk("settle", "2")
  return (journal, kiosk, journal.bytes)
}

@Test(arguments: [
  (["settle", "9"], 65, "kiosk: no tab #9"),
  (["settle", "2"], 65, "kiosk: tab #2 is already settled"),
  (["add", "2", "latte"], 65, "kiosk: tab #2 is already settled"),
  (["add", "1", "mocha"], 65, "kiosk: no item 'mocha' on the menu"),
  (["restock", "sugar", "3"], 65, "kiosk: no ingredient 'sugar'; ingredients are beans, milk, oatMilk, syrup, cup"),
  (["restock", "milk", "0"], 64, "kiosk: a restock count is a whole number from 1 to 1000000000, not '0'"),
  (["restock", "milk", "lots"], 64, "kiosk: a restock count is a whole number from 1 to 1000000000, not 'lots'"),
  (["add", "one", "latte"], 64, "kiosk: 'one' is not a tab number"),
  (["open"], 64, "kiosk: usage: kiosk open CUSTOMER"),
  (["frobnicate"], 64, "kiosk: unknown command 'frobnicate'; run 'kiosk help'"),
  (["--verbose", "menu"], 64, "kiosk: unknown option '--verbose'; run 'kiosk help'"),
])
func everyRefusalExitsWithItsCodeAndLeavesTheJournalAsItWas(
  arguments: [String], status: Int32, message: String
) throws {
  let (journal, kiosk, before) = try preparedJournal()
  let run = try kiosk.run(["--journal", journal.path] + arguments)
  #expect(run.status == status)
  #expect(run.errors == message + "\n")
  #expect(run.output.isEmpty)
  #expect(journal.bytes == before)
}

@Test func aShortageAndADeclinedPaymentChangeNothing() throws {
  let (journal, kiosk, _) = try preparedJournal()
  _ = try kiosk("open", "Carol")
  for _ in 0..<6 { _ = try kiosk("add", "3", "oat latte") }
  #expect(try kiosk("settle", "3").status == 0)  // 12 oat milk: all of it
  _ = try kiosk("open", "Dan")
  let refused = try kiosk("add", "4", "oat latte")
  #expect(refused.status == 65)
  #expect(refused.errors == "kiosk: Oat Latte cannot be made now: not enough oatMilk\n")

  // Over the stand-in processor's limit of 1,000: 223 cold brews at 4.25 = 947.75
  // fit, 236 = 1,003 do not. Restock beans and cups enough first.
  _ = try kiosk("restock", "beans", "500")
  _ = try kiosk("restock", "cup", "500")
  let many = String(repeating: "add 4 cold brew\n", count: 236)
  #expect(try kiosk("shell", input: many).lines.count == 236)
  let board = try kiosk("board").output
  let declined = try kiosk("settle", "4")
  #expect(declined.status == 65)
  #expect(declined.errors == "kiosk: payment declined: over the 1000 limit\n")
  // The intent was journaled before the processor was asked; the decline closes it.
  let history = try kiosk("history").lines
  #expect(history[history.count - 2].contains("charge intent for tab #4: 1003.00 under k_"))
  #expect(history[history.count - 2].hasSuffix("_\(history.count - 1)_t4"))  // the key names its own record and its tab
  #expect(history.last!.hasSuffix("abandoned: declined: over the 1000 limit"))
  #expect(try kiosk("board").output == board)
  #expect(try kiosk("reconcile").status == 0)

  // Removing a line brings the tab under the limit.
  for _ in 0..<4 { #expect(try kiosk("remove", "4", "cold brew").status == 0) }
  #expect(try kiosk("settle", "4").status == 0)
}

@Test func theShellAnswersOneLinePerCommandThroughAPipe() throws {
  let journal = try TemporaryJournal()
  let kiosk = KioskBinary(journal: journal.path)
  let run = try kiosk("shell", input: "open Ada\nadd 1 latte\nadd 1 mocha\n\nsettle 1\nboard --all\nundo\nstock\n")
  #expect(run.status == 0)
  #expect(run.lines.count == 7)
  #expect(run.lines[0] == "opened tab #1 for Ada")
  #expect(run.lines[2] == "error: no item 'mocha' on the menu")
  #expect(run.lines[3].hasPrefix("receipt for tab #1 (Ada) |   Latte"))
  #expect(run.lines[4] == "#1 Ada: Latte — 4.50 (settled)")
  #expect(run.lines[6].hasPrefix("INGREDIENT  UNITS | beans       40 | milk        30"))
  // initialized, open, add, charge intent, settle, refund intent, undo
  #expect(try kiosk("history").lines.count == 7)
}

/// A shell line splits at spaces and tabs only, however many, wherever they
/// stand; any other character, a no-break space or a combining accent
/// included, belongs to its word.
@Test func theShellSplitsALineAtSpacesAndTabsOnly() throws {
  let journal = try TemporaryJournal()
  let kiosk = KioskBinary(journal: journal.path)
  let run = try kiosk(
    "shell", input: "  open \t Zoe\u{0301}  \nopen\u{00A0}Ann\n\topen\tBo Li\t\n \t \nboard\n")
  #expect(run.status == 0)
  #expect(
    run.lines == [
      "opened tab #1 for Zoe\u{0301}", "error: unknown command 'open\u{00A0}Ann'; run 'kiosk help'",
      "opened tab #2 for Bo Li", "#1 Zoe\u{0301}: nothing yet — 0.00 | #2 Bo Li: nothing yet — 0.00",
    ], "\(run.lines)")
  // Options belong on the kiosk command line; `--` ends them, and a number is a word.
  let options = try kiosk("shell", input: "open --json Ada\nopen -- --x\nopen -5\nopen --wait 3 Al\n")
  #expect(
    options.lines == [
      "error: options go on the kiosk command line, not on a shell line", "opened tab #3 for --x",
      "opened tab #4 for -5", "error: options go on the kiosk command line, not on a shell line",
    ], "\(options.lines)")
}

/// A command's name matches in any case, as Unicode lowercases it: the
/// Kelvin sign lowercases to an ASCII "k", so "STOC\u{212A}" is `stock`.
@Test func aShellCommandNameMatchesInAnyCase() throws {
  let journal = try TemporaryJournal()
  let run = try KioskBinary(journal: journal.path)("shell", input: "OPEN Cy\nstock\nSTOC\u{212A}\nStOcKs\n")
  #expect(run.status == 0)
  #expect(run.lines.count == 4, "\(run.lines)")
  #expect(run.lines.first == "opened tab #1 for Cy")
  #expect(run.lines.dropFirst().first?.hasPrefix("INGREDIENT  UNITS") == true, "\(run.lines)")
  #expect(run.lines.dropFirst(2).first == run.lines.dropFirst().first)
  #expect(run.lines.last == "error: unknown command 'StOcKs'; run 'kiosk help'")
}

@Test func jsonGivesOneObjectPerResult() throws {
  let journal = try TemporaryJournal()
  let kiosk = KioskBinary(journal: journal.path)
  for arguments in [
    ["menu"], ["stock"], ["open", "Ada"], ["add", "1", "latte"], ["board"], ["settle", "1"],
    ["undo"], ["restock", "cup", "2"], ["history"], ["verify"],
  ] {
    let run = try kiosk.run(["--journal", journal.path, "--json"] + arguments)
    #expect(run.status == 0, "\(arguments)")
    #expect(run.lines.count == 1, "\(arguments)")
    let object = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any]
    #expect(object?["command"] as? String == arguments[0], "\(arguments)")
  }
  let refused = try kiosk.run(["--journal", journal.path, "--json", "settle", "8"])
  #expect(refused.status == 65)
  #expect(refused.errors == "{\"error\":\"no tab #8\",\"exitCode\":65}\n")
}

@Test func theJournalPathComesFromTheEnvironmentWhenNotGiven() throws {
  let journal = try TemporaryJournal()
  let kiosk = KioskBinary(journal: journal.path)
  let run = try kiosk.run(["open", "Eve"], environment: ["KIOSK_JOURNAL": journal.path])
  #expect(run.output == "opened tab #1 for Eve\n")
  #expect(try kiosk("board").output == "#1 Eve: nothing yet — 0.00\n")
}

@Test func twoInvocationsAtOnceOneGetsTheLockError() throws {
  let journal = try TemporaryJournal()
  let kiosk = KioskBinary(journal: journal.path)
  _ = try kiosk("open", "Ada")
  // A shell holds the journal while it waits for input.
  let (holder, input, output) = try kiosk.startShell()
  try input.fileHandleForWriting.write(contentsOf: Data("board\n".utf8))
  _ = output.fileHandleForReading.availableData  // its answer: it has the lock now
  let before = journal.bytes
  let second = try kiosk("--wait", "0.2", "open", "Bob")
  #expect(second.status == 74)
  #expect(
    second.errors
      == "kiosk: journal '\(journal.path)' is locked by another process (pid \(holder.processIdentifier))\n")
  #expect(journal.bytes == before)
  try input.fileHandleForWriting.close()
  holder.waitUntilExit()
  #expect(holder.terminationStatus == 0)
  #expect(try kiosk("open", "Bob").status == 0)
}

@Test func aCorruptJournalIsRefusedUntilRepaired() throws {
  let (journal, kiosk, before) = try preparedJournal()
  var bytes = [UInt8](before)
  bytes[40] ^= 0x01  // inside the first record, with four valid records after it
  _ = FileManager.default.createFile(atPath: journal.path, contents: Data(bytes))
  let refused = try kiosk("board")
  #expect(refused.status == 74)
  #expect(refused.errors.hasPrefix("kiosk: journal is corrupt at byte 20 (record 1) with valid records after it"))
  #expect(journal.bytes == Data(bytes))
  let repair = try kiosk("repair")
  #expect(repair.status == 0)
  #expect(repair.output.hasPrefix("repaired: kept 0 records"))
  #expect(FileManager.default.contents(atPath: journal.path + ".corrupt") == Data(bytes))
  #expect(try kiosk("board").output == "no tabs\n")
}

@Test func aTornTailIsDroppedWithAWarningAndTheRestKept() throws {
  let (journal, kiosk, before) = try preparedJournal()
  _ = FileManager.default.createFile(atPath: journal.path, contents: before.dropLast(3))
  let torn = journal.bytes
  // A reader leaves the torn tail alone, says so, and shows the valid prefix:
  // the settle's intent is durable, its outcome is not, so the tab is open and
  // the processor's charge is pending.
  let board = try kiosk("board")
  #expect(board.status == 0)
  #expect(board.errors.hasPrefix("kiosk: warning: the journal ends in "))
  #expect(board.output == "#1 Ada: Espresso — 3.00\n#2 Bob: Latte — 4.50\n")
  #expect(journal.bytes == torn)
  let pending = try kiosk("reconcile")
  #expect(pending.status == 0)
  #expect(pending.lines.contains { $0.hasPrefix("pending: the charge intent k_") })
  // The next writer saves and cuts the tail, and reconciliation completes the settle.
  let open = try kiosk("open", "Carol")
  #expect(open.status == 0)
  #expect(open.errors.contains("kiosk: warning: recovered the journal: dropped a torn tail of "))
  #expect(open.errors.contains(", saved in \(journal.path).torn-tail"))
  #expect(open.errors.contains("kiosk: reconciled: charge of 4.50 for tab #2 (key k_"))
  #expect(
    try kiosk("board", "--all").output
      == "#1 Ada: Espresso — 3.00\n#2 Bob: Latte — 4.50 (settled)\n#3 Carol: nothing yet — 0.00\n")
  #expect(try kiosk("reconcile").status == 0)
}

@Test func theDemoRunsEveryCommand() throws {
  let run = try KioskBinary(journal: "/nonexistent").run(["demo"])
  #expect(run.status == 0)
  for command in ["menu", "stock", "open", "add", "board", "settle", "restock", "undo", "history", "verify"] {
    #expect(run.output.contains("$ kiosk \(command)"), "\(command)")
  }
  #expect(run.output.contains("verified "))
}

@Test func aDemoWhoseTemporaryFolderCannotTakeItsJournalSaysWhyInOneLine() throws {
  let journal = try TemporaryJournal()
  let file = journal.folder.path + "/a-file"
  #expect(FileManager.default.createFile(atPath: file, contents: Data()))
  let run = try KioskBinary(journal: "/nonexistent").run(["demo"], environment: ["TMPDIR": file])
  #expect(run.status == 74)
  #expect(run.errors == "kiosk: the demo's journal cannot be made in '\(file)' ($TMPDIR): Not a directory\n")
}

/// Starts `kiosk shell`, feeds it restocks, kills it with SIGKILL after a
/// random moment, and checks after every kill that the journal reopens and
/// holds every command the kiosk acknowledged (printed), plus at most the one
/// it was committing when it died. A checkpoint every 7 records makes many
/// kills land while one is being written. Odd rounds count their random
/// moment from the shell's first answer, so that a loaded machine, where a
/// process can take longer to start than the longest moment, still kills
/// shells mid-stream rather than only before they start.
@Test func killingTheKioskAtRandomMomentsNeverLosesAnAcknowledgedCommand() throws {
  let journal = try TemporaryJournal()
  let kiosk = KioskBinary(journal: journal.path)
  var onDisk = 0
  var interrupted = 0
  let rounds = 25
  for round in 1...rounds {
    let (process, input, output) = try kiosk.startShell(environment: ["KIOSK_CHECKPOINT_EVERY": "7"])
    try input.fileHandleForWriting.write(contentsOf: Data(String(repeating: "restock cup 1\n", count: 300).utf8))
    // Empty only when the shell closed its output: it answered nothing, and the kill below finds it gone.
    let firstAnswer = round % 2 == 1 ? output.fileHandleForReading.availableData : Data()
    usleep(UInt32.random(in: round % 2 == 1 ? 0...20_000 : 2_000...40_000))
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    let printed = String(decoding: firstAnswer + output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let acknowledged = printed.split(separator: "\n").filter { $0.hasPrefix("restocked cup: +1") }.count
    if acknowledged < 300 { interrupted += 1 }
    try? input.fileHandleForWriting.close()

    let history = try kiosk("history", "--all")
    // A kill before the journal was created leaves none: `history` says so (74), and nothing was acknowledged.
    let noJournalYet = !FileManager.default.fileExists(atPath: journal.path)
    #expect(history.status == 0 || (noJournalYet && acknowledged == 0), "round \(round): \(history.errors)")
    let committed = history.lines.filter { $0.hasSuffix("  restock cup +1") }.count
    #expect(committed - onDisk >= acknowledged, "round \(round): an acknowledged command was lost")
    #expect(committed - onDisk <= acknowledged + 1, "round \(round): more than the one in-flight command")
    onDisk = committed
    let stock = try kiosk("--json", "stock").output
    #expect(stock.contains("{\"ingredient\":\"cup\",\"units\":\(50 + committed)}"), "round \(round)")
  }
  #expect(interrupted > rounds / 2, "most kills should land mid-stream")
  let verify = try kiosk("verify")
  #expect(verify.status == 0, "\(verify.errors)")
  #expect(!verify.output.contains("(0 checkpoints"), "checkpoints were written and checked")
}

/// Kills `kiosk shell` at random moments while it opens tabs and closes days,
/// and checks after every kill that every acknowledged open is in some day's
/// file, that a close cut short is finished by the next writer, and that the
/// days chain (`verify --all`).
@Test func killingTheKioskWhileItClosesDaysLosesNothing() throws {
  let journal = try TemporaryJournal()
  let kiosk = KioskBinary(journal: journal.path)
  var acknowledgedOpens = 0
  var closesCutShort = 0
  for round in 1...12 {
    let (process, input, output) = try kiosk.startShell()
    let lines = (0..<40).map { $0 % 10 == 9 ? "close-day" : "open Guest" }.joined(separator: "\n") + "\n"
    try input.fileHandleForWriting.write(contentsOf: Data(lines.utf8))
    usleep(UInt32.random(in: 2_000...60_000))
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
    let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    acknowledgedOpens += printed.split(separator: "\n").filter { $0.hasPrefix("opened tab #") }.count
    try? input.fileHandleForWriting.close()

    // A reader never finishes a close; a writer does.
    if try kiosk("history").lines.last?.contains("  close day ") == true { closesCutShort += 1 }
    let open = try kiosk("open", "Check")
    #expect(open.status == 0, "round \(round): \(open.errors)")
    acknowledgedOpens += 1
    let history = try kiosk("history", "--all")
    let opens = history.lines.filter { $0.contains("  open tab #") }.count
    #expect(opens >= acknowledgedOpens, "round \(round): an acknowledged open was lost")
    #expect(opens <= acknowledgedOpens + 1, "round \(round): more than the one in-flight command")
    acknowledgedOpens = opens
    let verify = try kiosk("verify", "--all")
    #expect(verify.status == 0, "round \(round): \(verify.output)\(verify.errors)")
  }
  print("closes cut short by a kill and finished by the next writer: \(closesCutShort) of 12 rounds")
}

/// An error that quotes what was typed is one line, whatever was typed: a
/// newline, an escape sequence or a NUL is written as an escape, so no line
/// of the user's making (a forged `opened tab #9`) reaches the terminal.
@Test func anErrorThatQuotesWhatWasTypedStaysOneLineWithItsControlCharactersEscaped() throws {
  let journal = try TemporaryJournal()
  let kiosk = KioskBinary(journal: journal.path)
  let forged = try kiosk("bogus\nopened tab #9 for Eve")
  #expect(forged.status == 64)
  #expect(forged.errors == "kiosk: unknown command 'bogus\\nopened tab #9 for Eve'; run 'kiosk help'\n")
  // With no till yet, a malformed tab number is still a usage error.
  let colored = try kiosk("add", "1\u{1B}[31m", "latte")
  #expect(colored.status == 64)
  #expect(colored.errors == "kiosk: '1\\u{1B}[31m' is not a tab number\n", "\(colored.errors)")
  #expect(!FileManager.default.fileExists(atPath: journal.path))
  let separated = try kiosk("--bo\u{2028}gus", "board")
  #expect(separated.errors == "kiosk: unknown option '--bo\\u{2028}gus'; run 'kiosk help'\n", "\(separated.errors)")

  let shell = try kiosk("shell", input: "open Ada\n\u{0}\u{0}\nopen\tBo\u{7F}\n")
  #expect(
    shell.lines == ["opened tab #1 for Ada", "error: unknown command '\\u{0}\\u{0}'; run 'kiosk help'", shell.lines[2]])
  #expect(!shell.lines[2].unicodeScalars.contains { $0.properties.generalCategory == .control }, "\(shell.lines)")
  // A bidirectional override is written as an escape too: it would reorder the line.
  let reordered = try kiosk("bo\u{202E}gus")
  #expect(reordered.errors == "kiosk: unknown command 'bo\\u{202E}gus'; run 'kiosk help'\n")
  // JSON escapes what it must itself, and its lines are left as they are, valid JSON.
  let json = try kiosk("--json", "bo\ngus")
  #expect(json.errors == "{\"error\":\"unknown command 'bo\\ngus'; run 'kiosk help'\",\"exitCode\":64}\n")
  let jsonReordered = try kiosk("--json", "bo\u{202E}\u{2028}gus")
  let object = try JSONSerialization.jsonObject(with: Data(jsonReordered.errors.utf8)) as? [String: Any]
  #expect(object?["error"] as? String == "unknown command 'bo\u{202E}\u{2028}gus'; run 'kiosk help'")
}

/// `kiosk --help` and `kiosk -h` ask for the usage, as `kiosk help` does: on
/// standard output, exit 0. Bare `kiosk` is missing its command: the same
/// usage, lines and all, on standard error, exit 64.
@Test func helpAsAnOptionPrintsTheUsageAndBareKioskIsAUsageError() throws {
  let kiosk = KioskBinary(journal: "/nonexistent")
  let help = try kiosk.run(["help"])
  for asked in [["--help"], ["-h"]] {
    let run = try kiosk.run(asked)
    #expect(run.status == 0, "\(asked)")
    #expect(run.output == help.output, "\(asked)")
  }
  let bare = try kiosk.run([])
  #expect(bare.status == 64)
  #expect(bare.output.isEmpty)
  #expect(bare.errors == help.output)
  #expect(bare.errors.split(separator: "\n").count > 20, "the usage keeps its lines")
}
