import Foundation
import Testing

// What a hostile review of checkpoints and close-day found, pinned.

@Test func historyWarnsAboutATornTailAsTheOtherReadersDo() throws {
  let journal = try TemporaryJournal()
  let kiosk = KioskBinary(journal: journal.path, owner: journal)
  _ = try kiosk("open", "Quinn")
  _ = FileManager.default.createFile(atPath: journal.path, contents: journal.bytes.dropLast(5))
  let history = try kiosk("history")
  #expect(history.status == 0)
  #expect(history.lines == ["1  initialized: 5 menu items, 142 units of stock"])
  #expect(history.errors.hasPrefix("kiosk: warning: the journal ends in "))
}

@Test func historyKeepsWhatItReadBeforeCorruptionAndItsJsonStaysWellFormed() throws {
  let journal = try TemporaryJournal()
  let kiosk = KioskBinary(journal: journal.path, owner: journal)
  _ = try kiosk("shell", input: String(repeating: "restock milk 1\n", count: 50))
  var bytes = journal.bytes
  bytes[bytes.count - 400] ^= 0x5A  // inside a record some way before the end
  _ = FileManager.default.createFile(atPath: journal.path, contents: bytes)
  let text = try kiosk("history")
  #expect(text.status == 74)
  #expect(text.lines.count > 30, "the records before the corruption are printed")
  #expect(text.errors.contains("is corrupt at byte"))
  #expect(text.errors.contains("'\(journal.path)': "), "the error names the file")
  let json = try kiosk("--json", "history")
  #expect(json.status == 74)
  let object = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any]
  #expect((object?["records"] as? [Any])?.count == text.lines.count)
}

@Test func aRefusedCloseLeavesTheDayWorking() throws {
  let journal = try TemporaryJournal()
  let kiosk = KioskBinary(journal: journal.path, owner: journal)
  _ = try kiosk("open", "Ada")
  let archive = journal.path + ".day-0001"
  _ = FileManager.default.createFile(atPath: archive, contents: Data("notes".utf8))
  let refused = try kiosk("close-day")
  #expect(refused.status == 74)
  #expect(refused.errors.contains("another file has that name"))
  #expect(try kiosk("open", "Bob").status == 0, "nothing was decided: writers go on")
  try FileManager.default.removeItem(atPath: archive)
  #expect(try kiosk("close-day").status == 0)
  #expect(try kiosk("verify", "--all").status == 0)
}

@Test func aCloseThatACrashCutShortIsReportedNotRepeated() throws {
  let journal = try TemporaryJournal()
  let kiosk = KioskBinary(journal: journal.path, owner: journal)
  _ = try kiosk("open", "Ada")
  _ = try kiosk("add", "1", "latte")
  _ = try kiosk("settle", "1")
  let closed = try kiosk("close-day")
  #expect(closed.status == 0)
  // Put back the day's file as a crash right after its `dayClosed` record leaves it.
  let archive = journal.path + ".day-0001"
  try FileManager.default.removeItem(atPath: journal.path)
  try FileManager.default.copyItem(atPath: archive, toPath: journal.path)
  chmod(journal.path, 0o644)
  try FileManager.default.removeItem(atPath: archive)
  let again = try kiosk("close-day")
  #expect(again.status == 0)
  #expect(again.errors.contains("finished closing day 1, which a crash had cut short"))
  #expect(again.output == closed.output, "the same day's report, and no second close")
  #expect(try kiosk("history").lines.first?.contains("checkpoint: day 2 opens after") == true)
}

@Test func aMissingLiveJournalBesideArchivesIsNeverANewTill() throws {
  let journal = try TemporaryJournal()
  let kiosk = KioskBinary(journal: journal.path, owner: journal)
  _ = try kiosk("open", "Ada")
  _ = try kiosk("close-day")
  try FileManager.default.removeItem(atPath: journal.path)
  for command in [["open", "Cy"], ["board"], ["history", "--all"], ["close-day"]] {
    let run = try kiosk.run(["--journal", journal.path] + command)
    #expect(run.status == 74, "\(command)")
    #expect(run.errors.contains("is missing, but closed days are archived beside it"), "\(command)")
  }
  #expect(!FileManager.default.fileExists(atPath: journal.path))
}

@Test func closeDayNeverStartsATill() throws {
  let journal = try TemporaryJournal()
  let run = try KioskBinary(journal: journal.path, owner: journal)("close-day")
  #expect(run.status == 74)
  #expect(run.errors == "kiosk: there is no journal at '\(journal.path)'\n")
  #expect(!FileManager.default.fileExists(atPath: journal.path))
}

@Test func anArchiveIsNeverRepairedOrWrittenInPlace() throws {
  let journal = try TemporaryJournal()
  let kiosk = KioskBinary(journal: journal.path, owner: journal)
  _ = try kiosk("open", "Ada")
  _ = try kiosk("close-day")
  let archive = journal.path + ".day-0001"
  let before = FileManager.default.contents(atPath: archive)
  let repair = try kiosk.run(["--journal", archive, "repair"])
  #expect(repair.status == 64)
  #expect(repair.errors.contains("is a closed day's archive"))
  let open = try kiosk.run(["--journal", archive, "open", "Zed"])
  #expect(open.status == 74)
  #expect(open.errors.contains("is the archive of day 1, closed and read-only"))
  #expect(FileManager.default.contents(atPath: archive) == before)
}

@Test func aJournalReachedThroughASymlinkClosesBesideTheFileItNames() throws {
  let journal = try TemporaryJournal()
  let shop = journal.folder.appendingPathComponent("shop")
  try FileManager.default.createDirectory(at: shop, withIntermediateDirectories: true)
  let link = shop.appendingPathComponent("kiosk.journal").path
  let kiosk = KioskBinary(journal: link, owner: journal)
  _ = try KioskBinary(journal: journal.path)("open", "Ada")
  try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: journal.path)
  try FileManager.default.createSymbolicLink(
    atPath: link + ".processor", withDestinationPath: journal.path + ".processor")
  #expect(try kiosk("close-day").status == 0)
  #expect(FileManager.default.fileExists(atPath: journal.path + ".day-0001"))
  #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == journal.path, "the link is kept")
  #expect(try kiosk("open", "Bob").status == 0)
  #expect(try KioskBinary(journal: journal.path)("verify", "--all").status == 0)
}

@Test func theCheckpointIntervalFromTheEnvironmentIsDigitsOnly() throws {
  let journal = try TemporaryJournal()
  for value in ["+3", "0", "-1", "1e3", " 3"] {
    let run = try KioskBinary(journal: journal.path)("board", environment: ["KIOSK_CHECKPOINT_EVERY": value])
    #expect(run.status == 64, "\(value)")
  }
}

@Test func aLedgerThatIsNotALedgerIsOneLineOfError() throws {
  let journal = try TemporaryJournal()
  let kiosk = KioskBinary(journal: journal.path, owner: journal)
  _ = try kiosk("open", "Ada")
  _ = try kiosk("close-day")
  let run = try kiosk("--processor", journal.path + ".day-0001", "reconcile")
  #expect(run.status == 74)
  #expect(run.errors.split(separator: "\n").count == 1, "\(run.errors)")
  #expect(run.errors.hasSuffix("record 1: missing key 'kind'\n"), "\(run.errors)")
}

@Test func twoPathsToOneTillShareOneLedger() throws {
  let journal = try TemporaryJournal()
  // A link to the journal, and a link to its folder: three paths to one till.
  let elsewhere = journal.folder.appendingPathComponent("elsewhere")
  try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
  let fileLink = elsewhere.appendingPathComponent("till.journal").path
  let folderLink = journal.folder.appendingPathComponent("shop").path
  try FileManager.default.createSymbolicLink(atPath: folderLink, withDestinationPath: journal.folder.path)
  let byFileLink = KioskBinary(journal: fileLink, owner: journal)
  let byFolderLink = KioskBinary(journal: folderLink + "/kiosk.journal", owner: journal)
  let byPath = KioskBinary(journal: journal.path)
  #expect(try byPath("open", "Ada").status == 0)
  try FileManager.default.createSymbolicLink(atPath: fileLink, withDestinationPath: journal.path)
  #expect(try byFileLink("add", "1", "latte").status == 0)
  let settled = try byFolderLink("settle", "1")
  #expect(settled.status == 0, "\(settled.errors)")
  #expect(FileManager.default.fileExists(atPath: journal.path + ".processor"))
  #expect(!FileManager.default.fileExists(atPath: fileLink + ".processor"), "no second ledger beside the link")
  for kiosk in [byPath, byFileLink, byFolderLink] {
    let reconcile = try kiosk("reconcile")
    #expect(reconcile.status == 0, "\(reconcile.output)\(reconcile.errors)")
    #expect(try kiosk("board", "--all").output.contains("(settled)"))
  }
}

@Test func aLinkToAJournalNotMadeYetStartsTheTillWhereItPoints() throws {
  let journal = try TemporaryJournal()
  let link = journal.folder.appendingPathComponent("link.journal").path
  try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "kiosk.journal")
  let byLink = KioskBinary(journal: link, owner: journal)
  let opened = try byLink("open", "Ada")
  #expect(opened.status == 0, "\(opened.errors)")
  #expect(!journal.bytes.isEmpty, "the journal is made at the path the link names")
  #expect(!FileManager.default.fileExists(atPath: link + ".processor"), "no ledger beside the link")
  #expect(try KioskBinary(journal: journal.path)("board").output.contains("#1 Ada"))
}

@Test func aLedgerLeftBesideTheLinkIsNamedWithTheMoveThatFixesIt() throws {
  let journal = try TemporaryJournal()
  let link = journal.folder.appendingPathComponent("link.journal").path
  #expect(try KioskBinary(journal: journal.path)("open", "Ada").status == 0)
  try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: journal.path)
  // Where versions before one identity kept the ledger of a linked journal.
  try FileManager.default.moveItem(atPath: journal.path + ".processor", toPath: link + ".processor")
  let before = journal.bytes
  let run = try KioskBinary(journal: link, owner: journal)("open", "Bob")
  #expect(run.status == 74)
  #expect(run.errors.contains("move it there (mv '\(link).processor' '\(journal.path).processor')"), "\(run.errors)")
  #expect(journal.bytes == before, "nothing written")
  #expect(!FileManager.default.fileExists(atPath: journal.path + ".processor"), "no empty ledger made")
}

@Test func commandsThatNeedATillDoNotCreateOne() throws {
  let journal = try TemporaryJournal()
  for arguments in [["undo"], ["settle", "1"], ["add", "1", "latte"], ["remove", "1", "latte"]] {
    let run = try KioskBinary(journal: journal.path).run(["--journal", journal.path] + arguments)
    #expect(run.status == 65, "\(arguments)")
    #expect(run.errors.contains("there is no till at '\(journal.path)' yet"), "\(run.errors)")
  }
  #expect(try FileManager.default.contentsOfDirectory(atPath: journal.folder.path).isEmpty, "nothing created")
}

@Test func aDamagedArchiveIsSetAsideAndTheTillReconcilesWithoutIt() throws {
  let journal = try TemporaryJournal()
  let kiosk = KioskBinary(journal: journal.path, owner: journal)
  _ = try kiosk("shell", input: "open Ada\nadd 1 espresso\nsettle 1\nclose-day\nopen Bo\nadd 2 latte\nsettle 2\n")
  let archive = journal.path + ".day-0001"
  let refusedSound = try kiosk("set-aside", "1")
  #expect(refusedSound.status == 65 && refusedSound.errors.contains("reads whole and ends with its close"))
  var bytes = [UInt8](FileManager.default.contents(atPath: archive)!)
  bytes[100] ^= 0x01
  _ = FileManager.default.createFile(atPath: archive, contents: Data(bytes))

  let stuck = try kiosk("reconcile")
  #expect(stuck.status == 74)
  #expect(stuck.errors.contains("the archive of day 1 is damaged: '\(archive)': journal is corrupt at byte"))
  #expect(stuck.errors.contains("set it aside with 'kiosk set-aside 1'"), "\(stuck.errors)")
  #expect(!stuck.errors.contains("kiosk repair"), "repair never touches an archive: \(stuck.errors)")

  let setAside = try kiosk("set-aside", "1")
  #expect(setAside.status == 0, "\(setAside.errors)")
  #expect(FileManager.default.contents(atPath: archive + ".set-aside") == Data(bytes), "set aside, not changed")
  let reconcile = try kiosk("reconcile")
  #expect(reconcile.status == 0, "\(reconcile.output)\(reconcile.errors)")
  #expect(reconcile.lines.contains("set aside: 1 movements of days set aside as damaged are not compared"))
  let verify = try kiosk("verify", "--all")
  #expect(verify.status == 0, "\(verify.errors)")
  #expect(verify.lines.first == "set aside: day 1 was set aside as damaged; it is not read or checked")
  let history = try kiosk("history", "--all")
  #expect(history.status == 0 && history.errors.contains("day 1 was set aside as damaged"))
  #expect(history.lines.first == "day 2: \(journal.path)")
  #expect(try kiosk("open", "Cy").status == 0, "the till goes on")
  #expect(try kiosk("set-aside", "1").errors.contains("day 1 is set aside already"))
}
