import Journal
import KioskCommands
import Payment

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A step of closing a day, where `KioskShell.closeDayStepHook` runs.
public enum CloseDayStep: Sendable, Equatable {
  /// The next day's file is complete under its temporary name; nothing is decided yet.
  case afterNextDay
  /// `dayClosed` is durable in the day's file: the close is decided.
  case afterRecord
  /// The day's file has its archive name too; the live name is still the day's.
  case afterArchive
}

extension KioskShell {
  /// Closes the day (`kiosk close-day`): returns its Z report, leaves the
  /// day's settled tabs in its archive (and its settled-tabs file), and starts
  /// the next day's journal, which opens with a checkpoint of what carries
  /// over (the open tabs, the menu, the stock).
  ///
  /// Everything that could stop the close is checked before it is decided:
  /// the archive's name is free, the day's file replays to the till's state,
  /// and the next day's file is written (`<journal>.next`, synced) in a
  /// directory that takes hard links. Then (docs/journal.md, "End of day"):
  /// 1. `dayClosed` is journaled and synced in the day's file: from here on the
  ///    close is decided, and a writer that opens a file ending with it finishes it;
  /// 2. the day's file gets a second name, its archive's (`link`);
  /// 3. `<journal>.next` takes the journal's name (`rename`, atomic): the path
  ///    always names a whole journal, the day's or the next day's.
  ///
  /// When opening the shell finished a close that a crash had cut short, and
  /// nothing was done since, this returns that day's report and closes nothing more.
  ///
  /// Undo cannot reach back across a close: the next day starts with an empty undo history.
  public func closeDay() throws -> ZReport {
    try refuseWhileAnyInFlight()
    if let finished = finishedInterruptedClose, records.isEmpty {
      finishedInterruptedClose = nil
      return try ZReport.build(path: KioskSegments.archivePath(of: world.journal.path, day: finished))
    }
    try prepareToWrite()
    let path = world.journal.path
    let archive = KioskSegments.archiveName(of: path, day: day)
    let archivePath = KioskSegments.archivePath(of: path, day: day)
    var taken = stat()
    if lstat(archivePath, &taken) == 0, !KioskSegments.sameFile(path, archivePath) {
      throw KioskShellError.archiveExists(path: archivePath)
    }
    // A tab carried over starts the next day under the next day's keys, where a
    // settle would not find a charge the processor holds for it today: that
    // charge (its settle lost to a restored or damaged journal) is adopted first.
    for id in world.tabs.open.keys.sorted() {
      if let held = world.processor.ledger.heldCharge(of: id, journalSalt: world.journal.salt) {
        throw KioskShellError.heldChargeOfOpenTab(tab: id, reference: held.reference, amount: held.amount)
      }
    }
    // A Z report is the day's money: it does not close over movements the ledger lost.
    if !world.processor.lostNumbers.isEmpty {
      let audit = try paymentAudit()
      guard audit.agrees else {
        throw KioskShellError.ledgerLostMovements(path: world.processor.path, mismatches: audit.mismatches.count)
      }
    }
    let report = try ZReport.build(path: path)
    guard report.closingState.canonicalJSONWrittenByHand() == world.snapshot.canonicalJSONWrittenByHand() else {
      throw KioskVerifier.Failure(
        description: "the day's journal replays to \(report.closingState.digest), the till holds "
          + "\(world.snapshot.digest); not closing the day (run 'kiosk verify')")
    }
    let next = try writeNextDay(after: day, archive: archive, lastSequence: world.journal.lastSequence + 1)
    try closeDayStepHook?(.afterNextDay)
    try journal(.dayClosed(day: day, archive: archive))
    try closeDayStepHook?(.afterRecord)
    try switchToNextDay(next, closed: day, archive: archive)
    return report
  }

  /// Finishes a close that a crash cut short after its `dayClosed` record
  /// (`KioskShell.init` runs it); safe to run again after a crash at any point.
  func finishClosingDay(_ closed: Int, archive: String) throws {
    let next = try writeNextDay(after: closed, archive: archive, lastSequence: world.journal.lastSequence)
    try switchToNextDay(next, closed: closed, archive: archive)
    finishedInterruptedClose = closed
  }

  /// Writes and syncs the next day's file as `<journal>.next`: one checkpoint of
  /// the state with nothing settled yet. Checks on the way that the directory
  /// takes hard links, which the archive needs.
  private func writeNextDay(after closed: Int, archive: String, lastSequence: UInt64) throws -> DurableJournal {
    let path = world.journal.path
    let carried = world.snapshot.carriedOver
    let nextPath = path + ".next"
    unlink(nextPath)
    unlink(nextPath + ".checkpoints")
    let opening = KioskCheckpoint(
      day: closed + 1, state: carried, undo: [], openIntents: [], paymentsJournaled: paymentsJournaled,
      previousDay: ClosedDay(day: closed, archive: archive, lastSequence: lastSequence, carriedDigest: carried.digest),
      ledgerNumbersUsed: world.processor.ledger.numbersUsed, settledTabs: .empty,
      ledgerStart: world.processor.endAnchor, till: tillName)
    // The next day is of version 3 unless the menu it carries has a price the
    // canonical form cannot hold (fractions of a cent, from a day begun in
    // version 2): in version 3 no settle of a tab holding it could be
    // journaled, so that day stays in version 2, which holds any amount.
    let version = opening.canonicalHolds ? JournalFormat.canonicalVersion : JournalFormat.encoderVersion
    var next = try DurableJournal(path: nextPath, lockWait: .zero, newFileVersion: version)
    try next.appendCheckpoint(opening)
    let probe = nextPath + ".link"
    unlink(probe)
    guard link(nextPath, probe) == 0 else {
      throw KioskShellError.cannotArchive(
        path: KioskSegments.archivePath(of: path, day: closed),
        reason: "the folder does not take hard links (\(String(cString: strerror(errno))))")
    }
    unlink(probe)
    return next
  }

  /// Steps 2 and 3 of `closeDay`: the day's file takes its archive name, the
  /// next day's file the journal's; then the shell goes on with the next day.
  private func switchToNextDay(_ next: consuming DurableJournal, closed: Int, archive: String) throws {
    let path = world.journal.path
    let archivePath = KioskSegments.archivePath(of: path, day: closed)
    // An archive ends with its last record: the zeros the journal wrote ahead go first (docs/journal.md, "Space ahead").
    try world.journal.cutSpaceAhead()
    if link(path, archivePath) != 0 {
      let failure = errno
      guard failure == EEXIST, KioskSegments.sameFile(path, archivePath) else {
        throw failure == EEXIST
          ? KioskShellError.archiveExists(path: archivePath)
          : KioskShellError.cannotArchive(path: archivePath, reason: String(cString: strerror(failure)))
      }
    }
    try closeDayStepHook?(.afterArchive)
    // The day's checkpoint index and settled tabs go with its archive (both
    // derived from it; best effort).
    rename(path + ".checkpoints", archivePath + ".checkpoints")
    _ = settledTabs.synchronized()
    rename(SettledTabsFile.path(besideJournal: path), SettledTabsFile.path(besideJournal: archivePath))
    try next.rename(to: path)
    KioskSegments.makeReadOnly(archivePath)
    let carried = world.snapshot.carriedOver
    world.journal = next
    settledTabs = DerivedLog(path: SettledTabsFile.path(besideJournal: path), salt: world.journal.salt, keeping: .empty)
    world.restore(carried)
    history = UndoHistory()
    records.removeAll(keepingCapacity: true)
    openIntents = []
    day = closed + 1
    ledgerStart = world.processor.endAnchor
    didChange()
  }
}
