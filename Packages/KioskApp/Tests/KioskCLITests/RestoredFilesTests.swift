import Foundation
import Testing

// Files put back from other copies (a backup of the journal, another till's
// ledger, an older settled-tabs file): the till refuses to write where money
// could move twice or land in the wrong ledger, and rebuilds what it derives.

@Test func aBackupOfAnArchivedDayRestoredOverTheLiveJournalIsNeverWrittenAgain() throws {
  let journal = try TemporaryJournal()
  let kiosk = KioskBinary(journal: journal.path)
  #expect(try kiosk("open", "Ada").status == 0)
  #expect(try kiosk("add", "1", "latte").status == 0)
  let dayOne = journal.bytes
  #expect(try kiosk("close-day").status == 0)
  #expect(try kiosk("settle", "1").status == 0)
  _ = FileManager.default.createFile(atPath: journal.path, contents: dayOne)

  for command in [["settle", "1"], ["open", "Bob"], ["undo"]] {
    let refused = try kiosk.run(["--journal", journal.path] + command)
    #expect(refused.status == 74, "\(command): \(refused.errors)")
    #expect(
      refused.errors.contains("holds day 1, but day 1 is already closed and archived as '\(journal.path).day-0001'"),
      "\(command): \(refused.errors)")
  }
  #expect(journal.bytes == dayOne, "nothing was written to the restored file")
  let ledger = try #require(FileManager.default.contents(atPath: journal.path + ".processor"))
  #expect(
    String(decoding: ledger, as: UTF8.self).components(separatedBy: #""kind":"charge""#).count - 1 == 1,
    "one charge in the ledger")
}

/// The live journal emptied on day 2 reads as a new day 1, which is archived
/// beside it: every writer refuses, and the empty file stays empty (a refused
/// command writes no header into it).
@Test func anEmptiedLiveJournalIsRefusedAndLeftEmpty() throws {
  let journal = try TemporaryJournal()
  let kiosk = KioskBinary(journal: journal.path)
  #expect(try kiosk("open", "Ada").status == 0)
  #expect(try kiosk("close-day").status == 0)
  _ = FileManager.default.createFile(atPath: journal.path, contents: Data())
  for command in [["open", "Bob"], ["restock", "milk", "3"]] {
    let refused = try kiosk.run(["--journal", journal.path] + command)
    #expect(refused.status == 74, "\(command): \(refused.errors)")
    #expect(refused.errors.contains("already closed and archived"), "\(command): \(refused.errors)")
    #expect(journal.bytes.isEmpty, "\(command) wrote into the emptied journal")
  }
  // With its ledger moved away too, the refused open leaves no new ledger behind.
  try FileManager.default.removeItem(atPath: journal.path + ".processor")
  #expect(try kiosk("open", "Cy").status == 74)
  #expect(!FileManager.default.fileExists(atPath: journal.path + ".processor"), "a ledger was left behind")
  #expect(journal.bytes.isEmpty)
}

@Test func anotherTillsLedgerBesideAJournalThatTookMoneyIsRefused() throws {
  let north = try TemporaryJournal()
  let south = try TemporaryJournal()
  for till in [north, south] {
    let kiosk = KioskBinary(journal: till.path)
    #expect(try kiosk("open", "Ada").status == 0)
    #expect(try kiosk("add", "1", "latte").status == 0)
    #expect(try kiosk("settle", "1").status == 0)
  }
  let kiosk = KioskBinary(journal: north.path)
  let ownLedger = try #require(FileManager.default.contents(atPath: north.path + ".processor"))
  let southLedger = try #require(FileManager.default.contents(atPath: south.path + ".processor"))

  // A first day: no movement of the other ledger is under this journal's keys.
  _ = FileManager.default.createFile(atPath: north.path + ".processor", contents: southLedger)
  #expect(try kiosk("open", "Bob").status == 74)
  let firstDay = try kiosk("settle", "2")
  #expect(firstDay.status == 74, "\(firstDay.errors)")
  #expect(firstDay.errors.contains("holds 1 movement under another journal's keys"), "\(firstDay.errors)")
  #expect(FileManager.default.contents(atPath: north.path + ".processor") == southLedger, "nothing charged into it")

  // A later day: it began at a place in another ledger file.
  _ = FileManager.default.createFile(atPath: north.path + ".processor", contents: ownLedger)
  #expect(try kiosk("close-day").status == 0)
  _ = FileManager.default.createFile(atPath: north.path + ".processor", contents: southLedger)
  let laterDay = try kiosk("open", "Bob")
  #expect(laterDay.status == 74, "\(laterDay.errors)")
  #expect(laterDay.errors.contains("is not the file the live day began with"), "\(laterDay.errors)")
  _ = FileManager.default.createFile(atPath: north.path + ".processor", contents: ownLedger)
  #expect(try kiosk("open", "Bob").status == 0)
}

@Test func aSettledTabsFileFromAnotherCopyWithEntriesOfTheSameLengthsIsRebuilt() throws {
  let journal = try TemporaryJournal()
  let kiosk = KioskBinary(journal: journal.path)
  let often = ["KIOSK_CHECKPOINT_EVERY": "1"]
  for (tab, name) in [(1, "Ada"), (2, "Bob")] {
    #expect(try kiosk("open", name, environment: often).status == 0)
    #expect(try kiosk("add", "\(tab)", "latte", environment: often).status == 0)
  }
  let beforeSettles = journal.bytes
  #expect(try kiosk("settle", "1", environment: often).status == 0)
  #expect(try kiosk("restock", "beans", "1", environment: often).status == 0)
  let adaSettled = journal.bytes
  // Another branch from the older copy settles Bob instead: an entry of the same length.
  _ = FileManager.default.createFile(atPath: journal.path, contents: beforeSettles)
  #expect(try kiosk("settle", "2", environment: often).status == 0)
  _ = FileManager.default.createFile(atPath: journal.path, contents: adaSettled)

  let expected = "#1 Ada: Latte — 4.50 (settled)\n#2 Bob: Latte — 4.50\n"
  #expect(try kiosk("board", "--all").output == expected, "a reader does not trust the file")
  #expect(try kiosk("restock", "cup", "1", environment: often).status == 0)
  #expect(try kiosk("board", "--all").output == expected, "the writer rebuilt it")
  // Bob's charge, made on the other branch, is adopted rather than made again.
  #expect(try kiosk("settle", "2", environment: often).errors.contains("adopted the processor's charge"))
  #expect(
    try kiosk("board", "--all").output == "#1 Ada: Latte — 4.50 (settled)\n#2 Bob: Latte — 4.50 (settled)\n")
  let verify = try kiosk("verify")
  #expect(verify.status == 0, "\(verify.errors)")
  #expect(!verify.output.contains("settled-tabs"), "\(verify.output)")
}

/// A day closed, a carried-over tab settled the next day; then the closed day
/// comes back as the live journal, with no archive to say it is closed: the
/// archive renamed over the live journal (same file, so it looks like a close
/// cut short), or a backup restored with the archives moved away. The ledger
/// has moved on under the next day's keys, so every writer refuses, and Bob is
/// charged once.
@Test func aClosedDayBackAsTheLiveJournalIsRefusedWhereverItsArchiveIs() throws {
  for way in ["the archive renamed over the live journal", "a backup restored, the archives moved away"] {
    let journal = try TemporaryJournal()
    let kiosk = KioskBinary(journal: journal.path)
    for command in [
      ["open", "Ada"], ["add", "1", "latte"], ["settle", "1"], ["open", "Bob"], ["add", "2", "latte"],
    ] {
      #expect(try kiosk.run(["--journal", journal.path] + command).status == 0, "\(way): \(command)")
    }
    let backup = journal.bytes
    #expect(try kiosk("close-day").status == 0)
    #expect(try kiosk("settle", "2").status == 0, "\(way): Bob settles on day 2")
    let archive = journal.path + ".day-0001"
    let files = FileManager.default
    if way.hasPrefix("the archive") {
      #expect(rename(archive, journal.path) == 0)
    } else {
      let away = journal.path + ".away"
      try files.createDirectory(atPath: away, withIntermediateDirectories: false)
      for name in [archive, archive + ".settled"] where files.fileExists(atPath: name) {
        try files.moveItem(atPath: name, toPath: away + "/" + URL(fileURLWithPath: name).lastPathComponent)
      }
      try files.removeItem(atPath: journal.path)
      _ = files.createFile(atPath: journal.path, contents: backup)
    }
    let before = journal.bytes
    for command in [["settle", "2"], ["open", "Cy"]] {
      let refused = try kiosk.run(["--journal", journal.path] + command)
      #expect(refused.status == 74, "\(way), \(command): \(refused.errors)")
      #expect(refused.errors.contains("under another journal's keys"), "\(way), \(command): \(refused.errors)")
    }
    #expect(journal.bytes == before, "\(way): nothing was written to the journal")
    let ledger = try #require(files.contents(atPath: journal.path + ".processor"))
    #expect(
      String(decoding: ledger, as: UTF8.self).components(separatedBy: #""kind":"charge""#).count - 1 == 2,
      "\(way): Ada and Bob charged once each")
  }
}

/// Puts `bytes` back as the journal, as a restored backup would be, without the
/// files derived from the journal it replaces.
private func restore(_ bytes: Data, as journal: TemporaryJournal) {
  _ = FileManager.default.createFile(atPath: journal.path, contents: bytes)
  for derived in [".settled", ".checkpoints"] { try? FileManager.default.removeItem(atPath: journal.path + derived) }
}

/// A crash right after record `sequence`, a payment intent: the journal ends
/// with it, and the ledger is `ledger`, as it stood before the intent's command.
private func crash(after sequence: Int, of journal: TemporaryJournal, ledger: Data) {
  let intent = frames(of: journal.bytes)[sequence - 1]
  #expect(
    String(decoding: journal.bytes[intent.payload].prefix(20), as: UTF8.self).hasPrefix(#"{"paymentIntent""#),
    "record \(sequence) is an intent")
  restore(journal.bytes.prefix(intent.payload.upperBound), as: journal)
  _ = FileManager.default.createFile(atPath: journal.path + ".processor", contents: ledger)
}

/// A backup restored from before a settle that was then undone: the next
/// settle's first key is the old charge's (record 4) and its second the old
/// refund's (record 6), and a crash between either intent and the abandonment
/// of its used key leaves the intent open. The next writer finds under the key
/// a charge refunded since, or a refund: not this tab's payment, so the intent
/// is abandoned and the tab stays open, to be charged for real (before, the
/// first settled the tab with the refunded charge, and the second froze the
/// till). The audit still names the charge and refund of the stretch the
/// backup lost.
@Test(arguments: [4, 6])
func anOpenIntentWhoseKeyMovedMoneyBeforeIsAbandonedNotSettled(crashAfterRecord: Int) throws {
  let journal = try TemporaryJournal()
  let kiosk = KioskBinary(journal: journal.path)
  let ledgerPath = journal.path + ".processor"
  #expect(try kiosk("open", "Ada").status == 0)
  #expect(try kiosk("add", "1", "latte").status == 0)
  let backup = journal.bytes
  #expect(try kiosk("settle", "1").status == 0)  // intent at record 4
  #expect(try kiosk("undo").status == 0)  // refunded
  restore(backup, as: journal)
  let ledgerBefore = try #require(FileManager.default.contents(atPath: ledgerPath))
  #expect(try kiosk("settle", "1").status == 0)
  // The crash: the journal ends with one of the settle's intents under a used key, the ledger as before.
  crash(after: crashAfterRecord, of: journal, ledger: ledgerBefore)

  let next = try kiosk("restock", "milk", "1")
  #expect(next.status == 0, "\(next.errors)")
  #expect(next.errors.contains("before this intent, not this payment; abandoned"), "\(next.errors)")
  #expect(try kiosk("board").output.contains("#1 Ada"), "the tab is still open")
  let settle = try kiosk("settle", "1")
  #expect(settle.status == 0, "\(settle.errors)")
  // The tab is charged anew; the audit names only the movements of the journal's lost stretch.
  let reconcile = try kiosk("reconcile")
  #expect(reconcile.output.hasPrefix("processor: 2 charges (9.00), 1 refunds (4.50)"), "\(reconcile.output)")
  let mismatches = reconcile.output.split(separator: "\n").filter { $0.hasPrefix("mismatch: charge") }
  #expect(mismatches.count == 1 && mismatches[0].contains("_4_t1) settles 0 tabs"), "\(reconcile.output)")
}

/// After a restored backup, an undo's refund intent can get the key of an
/// older undo's refund of another charge; a crash before that used key is
/// abandoned leaves the intent open. The next writer finds under the key a
/// refund of another charge and amount: not this undo's, so the intent is
/// abandoned and the tab stays settled (before, the undo was completed with the
/// other refund: the tab reopened while its charge was never refunded).
@Test func anOpenRefundIntentWhoseKeyNamesAnotherChargesRefundIsAbandoned() throws {
  let journal = try TemporaryJournal()
  let kiosk = KioskBinary(journal: journal.path)
  let ledgerPath = journal.path + ".processor"
  for command in [["open", "Ada"], ["open", "Bob"], ["add", "1", "latte"], ["add", "2", "latte"]] {
    #expect(try kiosk.run(["--journal", journal.path] + command).status == 0)
  }
  let backup = journal.bytes
  #expect(try kiosk("settle", "1").status == 0)  // intent 6: ch_1 of 4.50
  #expect(try kiosk("settle", "2", environment: ["KIOSK_PROCESSOR_FAULT": "decline"]).status == 65)
  #expect(try kiosk("undo").status == 0)  // refund intent 10: re_2 of ch_1
  restore(backup, as: journal)
  #expect(try kiosk("add", "1", "latte").status == 0)
  #expect(try kiosk("add", "2", "latte").status == 0)
  #expect(try kiosk("settle", "1").status == 0)  // a fresh key: ch_3 of 9.00
  let ledgerBefore = try #require(FileManager.default.contents(atPath: ledgerPath))
  #expect(try kiosk("undo").status == 0)  // its first refund intent (record 10) takes re_2's key
  crash(after: 10, of: journal, ledger: ledgerBefore)

  let next = try kiosk("restock", "milk", "1")
  #expect(next.status == 0, "\(next.errors)")
  #expect(next.errors.contains("before this intent, not this payment; abandoned"), "\(next.errors)")
  let board = try kiosk("board").output
  #expect(board.hasPrefix("#2 Bob: Latte, Latte — 9.00\nsettled: 1 tab, 9.00"), "Ada's stays settled: \(board)")
  #expect(try kiosk("undo").output.contains("restock"))
  let undo = try kiosk("undo")  // the settle's own undo, under a fresh key
  #expect(undo.status == 0, "\(undo.errors)")
  #expect(undo.output.contains("tab #1"), "\(undo.output)")
}
