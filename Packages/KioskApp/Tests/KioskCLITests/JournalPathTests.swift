import Foundation
import Testing

// The journal's path as the system reads it: links followed where they
// point, `..` after a linked folder included, and a path that cannot name a
// journal refused in the journal's words before any ledger is made.

@Test func dotDotAfterALinkedFolderIsThatFoldersParentOnDisk() throws {
  let journal = try TemporaryJournal()
  let folder = journal.folder.path
  try FileManager.default.createDirectory(atPath: folder + "/a/b", withIntermediateDirectories: true)
  try FileManager.default.createSymbolicLink(atPath: folder + "/lnk", withDestinationPath: "a/b")
  #expect(try KioskBinary(journal: folder + "/a/j")("open", "InA").status == 0)

  // For the system, lnk/../j is a/j: the same till, and no till at ./j.
  let board = try KioskBinary(journal: folder + "/lnk/../j")("board")
  #expect(board.output.contains("InA"), "\(board.output)\(board.errors)")
  #expect(!FileManager.default.fileExists(atPath: folder + "/j"))
  let itself = try KioskBinary(journal: folder + "/a/j")("--processor", folder + "/lnk/../j", "open", "B")
  #expect(itself.status == 64, "the ledger named as the journal itself: \(itself.errors)")
}

@Test func aJournalPathThatCannotNameOneIsRefusedBeforeAnyLedgerIsMade() throws {
  let journal = try TemporaryJournal()
  let folder = journal.folder.path
  let missing = try KioskBinary(journal: folder + "/missing/j")("open", "X")
  #expect(missing.status == 74)
  #expect(missing.errors.contains("cannot open journal '\(folder)/missing/j'"), "\(missing.errors)")

  try FileManager.default.createSymbolicLink(atPath: folder + "/l1", withDestinationPath: "l2")
  try FileManager.default.createSymbolicLink(atPath: folder + "/l2", withDestinationPath: "l1")
  let loop = try KioskBinary(journal: folder + "/l1")("open", "X")
  #expect(loop.status == 74)
  #expect(loop.errors.contains("cannot open journal"), "\(loop.errors)")
  // Readers, and a command on a tab, say the same: no new till's menu where none can be, no advice to open a tab.
  for path in [folder + "/missing/j", folder + "/l1"] {
    for command in [["menu"], ["board"], ["reconcile"], ["add", "1", "latte"]] {
      let refused = try KioskBinary(journal: "").run(["--journal", path] + command)
      #expect(refused.status == 74, "\(command): \(refused.errors)")
      #expect(refused.errors.hasPrefix("kiosk: cannot open journal '\(path)'"), "\(command): \(refused.errors)")
    }
  }

  // A FIFO where the journal belongs (it stats as an empty file) and a folder.
  #expect(mkfifo(folder + "/fifo", 0o644) == 0)
  try FileManager.default.createDirectory(atPath: folder + "/folder", withIntermediateDirectories: false)
  for name in ["fifo", "folder"] {
    for command in [["open", "X"], ["restock", "milk", "1"]] {
      let refused = try KioskBinary(journal: "").run(["--journal", folder + "/" + name] + command)
      #expect(refused.status == 74)
      #expect(refused.errors.contains("'\(folder)/\(name)' is not a regular file"), "\(refused.errors)")
    }
  }
  let made = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".processor") }
  #expect(made.isEmpty, "no ledger beside a journal that cannot be: \(made)")
}

@Test func aJournalNameWithNoRoomForTheTillsFilesIsRefusedAndTheLongestThatFitsClosesItsDay() throws {
  let journal = try TemporaryJournal()
  let folder = journal.folder.path
  // 255 bytes a name, less `.day-0001.heal-4194304.next-4194304` (35), heal's copy of an archive: 220 fit, 221 do not.
  let longest = folder + "/" + String(repeating: "j", count: 220)
  let kiosk = KioskBinary(journal: longest)
  #expect(try kiosk("open", "Ann").status == 0)
  #expect(try kiosk("add", "1", "Latte").status == 0)
  #expect(try kiosk("settle", "1").status == 0)
  let closed = try kiosk("close-day")
  #expect(closed.status == 0, "\(closed.errors)")
  #expect(FileManager.default.fileExists(atPath: longest + ".day-0001"))
  #expect(try kiosk("open", "Bob").status == 0)
  let verified = try kiosk("verify", "--all")
  #expect(verified.status == 0, "\(verified.errors)")

  let before = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
  let tooLong = try KioskBinary(journal: folder + "/" + String(repeating: "k", count: 221))("open", "Cy")
  #expect(tooLong.status == 74)
  #expect(
    tooLong.errors.contains("is 221 bytes") && tooLong.errors.contains("(NAME.day-0001.heal-4194304.next-4194304)"))
  #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == before, "nothing was written")
}
