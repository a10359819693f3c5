import Foundation
import Testing

// A command's standard streams, as a hostile shell can leave them: closed,
// full. Run through `/bin/sh`, which can close a descriptor before `exec`.

/// `kiosk` with `arguments`, started by `/bin/sh` after `redirection` (`>&-`, `> /dev/full`).
private func kiosk(
  _ journal: TemporaryJournal, _ redirection: String, _ arguments: [String], input: String = "",
  prefix: String = ""
) throws -> KioskBinary.Run {
  try KioskBinary(journal: journal.path).run(
    executable: URL(fileURLWithPath: "/bin/sh"),
    ["-c", "\(prefix) exec \"$0\" \"$@\" \(redirection)", KioskBinary.url.path, "--journal", journal.path]
      + arguments, input: input)
}

@Test func aClosedStandardOutputIsNeverTheLedgerOrTheJournal() throws {
  let journal = try TemporaryJournal()
  let till = KioskBinary(journal: journal.path)
  #expect(try till("open", "Ada").status == 0)
  #expect(try till("add", "1", "latte").status == 0)
  #expect(try till("settle", "1").status == 0)
  let ledger = try #require(FileManager.default.contents(atPath: journal.path + ".processor"))

  let run = try kiosk(journal, ">&-", ["shell"], input: "open Eve\nsettle 1\n")
  #expect(run.status == 0, "\(run.errors)")
  let after = try #require(FileManager.default.contents(atPath: journal.path + ".processor"))
  #expect(after.prefix(ledger.count) == ledger, "the ledger holds what it held, and no result was printed into it")
  #expect(!String(decoding: after, as: UTF8.self).contains("opened tab"))
  #expect(try till("board").output.contains("Eve"), "the command ran")
  #expect(try till("verify").status == 0)
}

@Test func aResultThatCannotBeWrittenExits74SayingTheCommandRan() throws {
  let journal = try TemporaryJournal()
  let run = try kiosk(journal, "> /dev/full", ["open", "Ada"])
  #expect(run.status == 74)
  #expect(run.errors.contains("could not be written to standard output"), "\(run.errors)")
  #expect(run.errors.contains("the command itself ran"))
  #expect(try KioskBinary(journal: journal.path)("board").output.contains("Ada"), "journaled, as the message says")
}

@Test func aKioskVariableThatIsNotUTF8IsRefusedNotSkipped() throws {
  let journal = try TemporaryJournal()
  let run = try kiosk(journal, "", ["board"], prefix: "KIOSK_TILL=\"$(printf '\\377')\"; export KIOSK_TILL;")
  #expect(run.status == 64)
  #expect(run.errors.contains("$KIOSK_TILL is not valid UTF-8"), "\(run.errors)")
}
