import Foundation
import Journal

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A step of closing a day, where `KioskShell.closeDayStepHook` runs.
public enum CloseDayStep: Sendable, Equatable {
  /// `dayClosed` is durable in the day's file; the next day's file does not exist yet.
  case afterRecord
  /// The next day's file is complete under its temporary name.
  case afterNextDay
  /// The day's file has its archive name too; the live name is still the day's.
  case afterArchive
}

extension KioskShell {
  /// Closes the day (`kiosk close-day`): returns its Z report, moves the
  /// settled tabs out of the live state into the day's archive, and starts
  /// the next day's journal, which opens with a checkpoint of what carries
  /// over (the open tabs, the menu, the stock).
  ///
  /// The order makes a crash at any point safe (docs/journal.md, "End of day"):
  /// 1. `dayClosed` is journaled and synced in the day's file: from here on the
  ///    close is decided, and a writer that opens a file ending with it finishes it;
  /// 2. the next day's file is written and synced as `<journal>.next`;
  /// 3. the day's file gets a second name, its archive's (`link`);
  /// 4. `<journal>.next` takes the journal's name (`rename`, atomic): the path
  ///    always names a whole journal, the day's or the next day's.
  ///
  /// Undo cannot reach back across a close: the next day starts with an empty undo history.
  public func closeDay() throws -> ZReport {
    try prepareToWrite()
    let report = try ZReport.build(path: world.journal.path)
    guard report.closingState.canonicalJSON() == world.snapshot.canonicalJSON() else {
      throw KioskVerifier.Failure(
        description: "the day's journal replays to \(report.closingState.digest), the till holds "
          + "\(world.snapshot.digest); not closing the day (run 'kiosk verify')")
    }
    try journal(.dayClosed(day: day, archive: KioskSegments.archiveName(of: world.journal.path, day: day)))
    try closeDayStepHook?(.afterRecord)
    try finishClosingDay(day, archive: KioskSegments.archiveName(of: world.journal.path, day: day))
    return report
  }

  /// Steps 2 to 4 of `closeDay`; safe to run again after a crash at any point.
  func finishClosingDay(_ closed: Int, archive: String) throws {
    let path = world.journal.path
    let archivePath = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent(archive).path
    let carried = world.snapshot.carriedOver
    let nextPath = path + ".next"
    unlink(nextPath)
    unlink(nextPath + ".checkpoints")
    var next = try DurableJournal(path: nextPath, lockWait: .zero)
    try next.appendCheckpoint(
      KioskCheckpoint(
        day: closed + 1, state: carried, undo: [], openIntents: [], paymentsJournaled: paymentsJournaled,
        previousDay: ClosedDay(
          day: closed, archive: archive, lastSequence: world.journal.lastSequence, carriedDigest: carried.digest)))
    try closeDayStepHook?(.afterNextDay)
    if link(path, archivePath) != 0 {
      let failure = errno
      guard failure == EEXIST, Self.sameFile(path, archivePath) else {
        throw failure == EEXIST
          ? KioskShellError.archiveExists(path: archivePath)
          : KioskShellError.cannotArchive(path: archivePath, reason: String(cString: strerror(failure)))
      }
    }
    try closeDayStepHook?(.afterArchive)
    // The day's checkpoint index goes with its archive (a hint; best effort).
    rename(path + ".checkpoints", archivePath + ".checkpoints")
    try next.rename(to: path)
    chmod(archivePath, 0o444)
    world.journal = next
    world.restore(carried)
    history = UndoHistory()
    records.removeAll(keepingCapacity: true)
    openIntents = []
    day = closed + 1
    didChange()
  }

  /// Whether two paths name the same file.
  private static func sameFile(_ first: String, _ second: String) -> Bool {
    var one = stat()
    var two = stat()
    return stat(first, &one) == 0 && stat(second, &two) == 0 && one.st_dev == two.st_dev && one.st_ino == two.st_ino
  }
}
