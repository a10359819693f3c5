import Foundation
import Journal
import JournalIO
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

@Test func aSecondWriterIsRefusedOnceItsWaitRunsOut() throws {
  let file = try JournalFile()
  let first = try DurableJournal(path: file.path)
  // The holder is named: this very process.
  #expect(throws: JournalError.locked(path: file.path, holder: getpid())) {
    _ = try DurableJournal(path: file.path, lockWait: .milliseconds(50))
  }
  _ = consume first
  // The default wait: a child forked by another test may hold the released lock for a moment.
  let again = try DurableJournal(path: file.path)
  #expect(again.recovery.count == 0)
}

@Test func waitingForTheLockOfAHeldJournalNamesItsHolderAndTakesNothing() throws {
  let file = try JournalFile()
  var first: DurableJournal? = try DurableJournal(path: file.path)
  #expect(throws: JournalError.locked(path: file.path, holder: getpid())) {
    try DurableJournal.waitForLock(path: file.path, lockWait: .milliseconds(50))
  }
  first = nil
  try DurableJournal.waitForLock(path: file.path)
  // The wait let the lock go: a writer takes it at once.
  _ = try DurableJournal(path: file.path, lockWait: .zero)
  // No file: nothing to wait for, and none is made.
  try DurableJournal.waitForLock(path: file.path + ".none", lockWait: .zero)
  #expect(!FileManager.default.fileExists(atPath: file.path + ".none"))
  _ = first
}

@Test func theLockedErrorNamesTheJournal() {
  #expect(
    JournalError.locked(path: "/tmp/k.journal").description == "journal '/tmp/k.journal' is locked by another process")
}

/// The flake that once hit reopen tests: a `flock` belongs to the open file
/// description, and a child forked by another thread of the same process holds a
/// copy of every descriptor until it calls `exec` (`O_CLOEXEC` acts only then).
/// Here the child stays between `fork` and `exec` until the test lets it go, so
/// the window is as wide as the test wants: a reopen that does not wait fails,
/// one that waits succeeds as soon as the child is gone.
@Test func aReopenWaitsOutAChildThatHoldsTheLockBetweenForkAndExec() throws {
  let file = try JournalFile()
  var journal = try DurableJournal(path: file.path)
  try journal.append(Array("before the fork".utf8))

  var release: [Int32] = [0, 0]
  #expect(pipe(&release) == 0)
  let child = fork()
  if child == 0 {
    // The child: nothing but async-signal-safe calls, then exit without exec.
    close(release[1])
    var byte: UInt8 = 0
    _ = read(release[0], &byte, 1)
    _exit(0)
  }
  #expect(child > 0)
  close(release[0])
  _ = consume journal

  // Proof of the cause: the child's copy of the descriptor still holds the lock
  // (the system names the process that took it: this one).
  #expect(throws: JournalError.locked(path: file.path, holder: getpid())) {
    _ = try DurableJournal(path: file.path, lockWait: .zero)
  }

  // The fix: a reopen that waits gets the lock once the child exits.
  close(release[1])
  let reopened = try DurableJournal(path: file.path, lockWait: .seconds(30))
  #expect(reopened.recovery.payloads.map { String(decoding: $0, as: UTF8.self) } == ["before the fork"])
  var status: Int32 = 0
  #expect(waitpid(child, &status, 0) == child)
}

@Test func aLinkToNothingIsRefusedNotRetriedForever() throws {
  let file = try JournalFile()
  let link = file.path + ".link"
  try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: file.path + ".nowhere")
  defer { try? FileManager.default.removeItem(atPath: link) }
  // Opening finds no file; creating it exclusively finds the link: neither ever succeeds.
  #expect(throws: JournalError.cannotOpen(path: link, Errno(EEXIST))) {
    _ = try DurableJournal(path: link)
  }
}

/// A journal in a box (`DurableJournalBox`, what a durable store keeps) is
/// written through its pointer, and closed, its lock let go and the space
/// written ahead cut, when the box is let go; a journal put in its place
/// closes the one before.
@Test func aBoxedJournalIsClosedWhenItsBoxIsLetGoOrItIsReplaced() throws {
  let file = try JournalFile()
  var box: DurableJournalBox? = DurableJournalBox(try DurableJournal(path: file.path))
  try box?.journal.pointee.append(Array("boxed".utf8))
  #expect(throws: JournalError.locked(path: file.path, holder: getpid())) {
    _ = try DurableJournal(path: file.path, lockWait: .milliseconds(50))
  }
  box = nil
  let reopened = try DurableJournal(path: file.path, lockWait: .zero)
  #expect(reopened.recovery.payloads.map { String(decoding: $0, as: UTF8.self) } == ["boxed"])
  #expect(reopened.size == (try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int))

  let other = try JournalFile()
  let replacing = DurableJournalBox(reopened)
  replacing.replace(with: try DurableJournal(path: other.path))
  _ = try DurableJournal(path: file.path, lockWait: .zero)
  #expect(throws: JournalError.locked(path: other.path, holder: getpid())) {
    _ = try DurableJournal(path: other.path, lockWait: .milliseconds(50))
  }
  _ = replacing
}
