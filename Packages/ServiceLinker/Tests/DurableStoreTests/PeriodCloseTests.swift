import DurableStore
import Foundation
import Journal
import Synchronization
import Testing

/// Closing a period against what a hostile caller or a second process does:
/// no archive takes one of the store's own names, a rename that fails loses
/// nothing, and a second `open` during a close waits for the lock.
@MainActor @Suite struct PeriodCloseTests {
  @Test(arguments: [".next", ".checkpoints", ".next.checkpoints", "./.next", "/../@/.next", "./"])
  func noArchiveTakesOneOfTheStoresOwnNames(_ suffix: String) async throws {
    let till = try Till()
    var store: DurableStore<Tea>? = try till.open()
    try store?.send(.order("sencha"))
    await store?.finish()
    // However it is spelled: beside the journal (`./`), through its folder again (`../<folder>/`).
    let folderName = URL(fileURLWithPath: till.folder.path("x")).deletingLastPathComponent().lastPathComponent
    let archive =
      suffix.hasPrefix("./")
      ? "./tea.journal" + suffix.dropFirst(2)
      : suffix.hasPrefix("/../@/") ? "../\(folderName)/tea.journal" + suffix.dropFirst(6) : till.path + suffix
    #expect(throws: DurableStoreError.archiveExists(path: archive)) {
      try store?.closePeriod(into: archive)
    }
    try store?.send(.order("bancha"))
    await store?.finish()
    store = nil
    let reopened = try till.open()
    #expect(reopened.state.ordered == ["sencha", "bancha"])
    #expect(reopened.period == 0)
  }

  @Test func aClosedPeriodsArchiveOpenedAsTheJournalIsRefusedAndLeftAsItIs() async throws {
    let till = try Till()
    var store: DurableStore<Tea>? = try till.open()
    try store?.send(.order("hojicha"))
    await store?.finish()
    let archive = till.folder.path("day-1.journal")
    try store?.closePeriod(into: "day-1.journal")
    store = nil
    chmod(archive, 0o644)
    let bytes = try Data(contentsOf: URL(fileURLWithPath: archive))

    #expect(throws: DurableStoreError.archive(path: archive)) {
      _ = try DurableStore<Tea>.open(
        at: archive, initial: Tea.State(), environment: Tea.Environment(cards: till.cards, clock: till.clock))
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: archive)) == bytes)
    #expect(try DurableStore<Tea>.read(at: archive, initial: Tea.State()).state.ordered == ["hojicha"])
  }

  @Test func anArchiveThatCannotBeNamedLosesNothingAndThePeriodGoesOn() async throws {
    let till = try Till()
    var store: DurableStore<Tea>? = try till.open()
    try store?.send(.order("matcha"))
    await store?.finish()
    let archive = till.folder.path("no-such-folder/day-1.journal")
    #expect {
      try store?.closePeriod(into: archive)
    } throws: { error in
      guard case .archiveFailed(let path, _) = error as? DurableStoreError else { return false }
      return path == archive
    }
    try store?.send(.order("gyokuro"))
    await store?.finish()
    #expect(store?.period == 0)
    #expect(!FileManager.default.fileExists(atPath: till.path + ".next"))
    store = nil
    let reopened = try till.open()
    #expect(reopened.state.ordered == ["matcha", "gyokuro"])
  }

  /// At each step of the close the journal's path names a whole journal,
  /// the closing store's: a second `open` finds it locked, never missing.
  @Test(arguments: [CrashPoint.periodEnded, .periodNextWritten, .periodArchived])
  func aSecondOpenDuringAPeriodCloseWaitsForTheLockAndRemovesNothing(at probe: CrashPoint) async throws {
    let till = try Till()
    let path = till.path
    let secondOpen = SecondOpen()
    till.options.crashSeam = { (point: CrashPoint) throws(SimulatedCrash) in
      guard point == probe else { return }
      let other = MainActor.assumeIsolated { Till.reopen(at: path) }
      secondOpen.result.withLock { $0 = other }
    }
    var store: DurableStore<Tea>? = try till.open()
    try store?.send(.order("kukicha"))
    await store?.finish()
    try store?.closePeriod(into: till.folder.path("day-1.journal"))
    let second = secondOpen.result.withLock { $0 } ?? "none"
    #expect(second == "locked: \(path)", "the second open finds the journal, locked: \(second)")
    try store?.send(.order("genmaicha"))
    await store?.finish()
    store = nil
    till.options.crashSeam = nil
    let reopened = try till.open()
    #expect(reopened.period == 1)
    #expect(reopened.state.ordered == ["kukicha", "genmaicha"])
  }
}

/// Tea whose periods start with nothing charged: what was charged stays in its period's archive.
enum MonthlyTea: TeaVariant {
  static func nextPeriod(from state: State) -> State {
    var next = state
    next.charged = []
    return next
  }
}

extension PeriodCloseTests {
  @Test func theNextPeriodBeginsFromWhatTheFeatureCarriesOver() async throws {
    let till = try Till()
    var store: DurableStore<MonthlyTea>? = try till.open(as: MonthlyTea.self)
    try store?.send(.charged("sencha"))
    try store?.send(.order("bancha"))
    await store?.finish()
    try store?.closePeriod(into: "month-1.journal")
    #expect(store?.state.charged == [])
    #expect(store?.state.ordered == ["bancha"])
    store = nil
    let archive = try DurableStore<MonthlyTea>.read(at: till.folder.path("month-1.journal"), initial: Tea.State())
    #expect(archive.state.charged == ["sencha", "bancha"])
    let reopened = try till.open(as: MonthlyTea.self)
    #expect(reopened.state.charged == [])
    #expect(reopened.state.ordered == ["bancha"])
  }

  @Test func aPeriodEndsWithItsRecordAndTheNextPeriodNamesIt() async throws {
    let till = try Till()
    var store: DurableStore<Tea>? = try till.open()
    try store?.send(.charged("sencha"))
    // Relative: beside the journal, whatever the working directory.
    try store?.closePeriod(into: "day-1.journal")
    try store?.send(.charged("bancha"))
    store = nil

    let archivePath = till.folder.path("day-1.journal")
    let archived = try DurableJournal.read(path: archivePath)
    let last = archived.count - 1
    #expect(
      Array(archived.payload(last))
        == Array(#"{"action":null,"archive":"day-1.journal","intents":[],"kind":"end","period":0}"#.utf8))
    let link = DurablePeriodLink(period: 0, archive: "day-1.journal", lastSequence: archived.sequence(last))
    #expect(try DurableStore<Tea>.read(at: archivePath, initial: Tea.State()).ended == link)
    #expect(try DurableStore<Tea>.read(at: till.path, initial: Tea.State()).previousPeriod == link)
    let reopened = try till.open()
    #expect(reopened.previousPeriod == link)
    #expect(reopened.state.charged == ["sencha", "bancha"])

    try reopened.closePeriod(into: till.folder.path("day-2.journal"))
    #expect(reopened.previousPeriod?.period == 1)
    #expect(reopened.previousPeriod?.archive == till.folder.path("day-2.journal"))
  }

  @Test func anArchiveLeftWritableByACrashBeforeItsChmodIsMadeReadOnlyOnOpening() async throws {
    let till = try Till()
    var store: DurableStore<Tea>? = try till.open()
    try store?.send(.charged("sencha"))
    try store?.closePeriod(into: "day-1.journal")
    store = nil
    let archive = till.folder.path("day-1.journal")
    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: archive)
    _ = try till.open()
    #expect(try FileManager.default.attributesOfItem(atPath: archive)[.posixPermissions] as? Int == 0o444)
  }

  @Test func aCloseCutShortBeginsTheNextPeriodFromWhatCarriesOverOnce() async throws {
    let till = try Till()
    till.stop { $0 == .periodEnded }
    var store: DurableStore<MonthlyTea>? = try till.open(as: MonthlyTea.self)
    try store?.send(.charged("sencha"))
    try store?.send(.order("bancha"))
    await store?.finish()
    #expect(throws: DurableStoreError.stopped(at: .periodEnded)) { try store?.closePeriod(into: "month-1.journal") }
    store = nil
    till.options.crashSeam = nil
    let reopened = try till.open(as: MonthlyTea.self)
    #expect(reopened.period == 1)
    #expect(reopened.state.charged == [])
    #expect(reopened.state.ordered == ["bancha"])
    let archive = try DurableStore<MonthlyTea>.read(at: till.folder.path("month-1.journal"), initial: Tea.State())
    #expect(archive.state.charged == ["sencha", "bancha"])
  }

  @Test func aJournalOfAnotherVersionWithATornTailIsRefusedUntouched() async throws {
    let till = try Till()
    var store: DurableStore<Tea>? = try till.open()
    try store?.send(.charged("tip"))
    store = nil
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: till.path))
    try handle.seekToEnd()
    try handle.write(contentsOf: Data([0x2A, 0, 0, 0, 1, 2, 3]))
    try handle.close()
    let before = try Data(contentsOf: URL(fileURLWithPath: till.path))
    #expect(throws: DurableStoreError.unsupportedVersion(JournalFormat.canonicalVersion, path: till.path)) {
      _ = try till.open(as: TextTea.self)
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: till.path)) == before, "the torn tail is still there")
  }

  @Test func anArchiveNameTakenByALinkToNothingIsRefusedBeforeTheEndIsJournaled() async throws {
    let till = try Till()
    var store: DurableStore<Tea>? = try till.open()
    try store?.send(.charged("sencha"))
    let archive = till.folder.path("day-1.journal")
    try FileManager.default.createSymbolicLink(atPath: archive, withDestinationPath: till.folder.path("nowhere"))
    #expect(throws: DurableStoreError.archiveExists(path: archive)) { try store?.closePeriod(into: archive) }
    try store?.send(.charged("bancha"))
    store = nil
    let reopened = try till.open()
    #expect(reopened.period == 0)
    #expect(reopened.state.charged == ["sencha", "bancha"])
  }

  @Test func aRecordAfterItsPeriodsEndIsRefusedOnOpen() throws {
    let till = try Till()
    do {
      var journal = try DurableJournal(path: till.path)
      let steps: [(DurableStepKind, Tea.Action?)] = [
        (.sent, .charged("a")), (.periodClosed(period: 0, archive: "day-1.journal"), nil), (.sent, .charged("b")),
      ]
      for (kind, action) in steps {
        var framed = JournalFormat.reservedFrame
        CanonicalDurableFormat<Tea>.writeRecord(kind, action, [], result: nil, version: journal.version, to: &framed)
        try journal.append(framed: &framed)
      }
    }
    #expect {
      _ = try till.open()
    } throws: { error in
      guard case DurableStoreError.replay(let sequence, let reason) = error else { return false }
      return sequence == 3 && reason.contains("follows the end of period 0")
    }
    #expect(!FileManager.default.fileExists(atPath: till.folder.path("day-1.journal")))
  }

  @Test func aRenameThatFailsAfterThePeriodsEndHaltsTheStoreAndOpeningFinishesTheClose() async throws {
    let till = try Till()
    let folder = till.folder.path("archives")
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
    // The folder goes once the end is journaled: the rename that follows fails.
    till.options.crashSeam = { (point: CrashPoint) throws(SimulatedCrash) in
      if point == .periodEnded { try? FileManager.default.removeItem(atPath: folder) }
    }
    var store: DurableStore<Tea>? = try till.open()
    try store?.send(.charged("sencha"))
    let archive = folder + "/day-1.journal"
    #expect {
      try store?.closePeriod(into: archive)
    } throws: { error in
      guard case .archiveFailed(let path, let reason) = error as? DurableStoreError else { return false }
      return path == archive && reason.contains("opening the store again finishes the close")
    }
    #expect(throws: DurableStoreError.self) { try store?.send(.charged("bancha")) }
    store = nil
    till.options.crashSeam = nil
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
    let reopened = try till.open()
    #expect(reopened.period == 1)
    #expect(reopened.state.charged == ["sencha"])
    #expect(try DurableStore<Tea>.read(at: archive, initial: Tea.State()).state.charged == ["sencha"])
  }
}

/// What a second `open` of the journal, tried from inside a close, came to.
final class SecondOpen: Sendable {
  let result = Mutex<String?>(nil)
}

extension Till {
  /// Opens the journal at `path` as another process would, without waiting
  /// for its lock: "opened", or "locked" and why.
  static func reopen(at path: String) -> String {
    do {
      _ = try DurableStore<Tea>.open(
        at: path, initial: Tea.State(), environment: Tea.Environment(cards: CardService(), clock: ContinuousClock()),
        options: DurableStoreOptions(lockWait: .zero))
      return "opened"
    } catch .journal(.locked(let path, _)) {
      return "locked: \(path)"
    } catch {
      return "failed: \(error)"
    }
  }
}

/// A period's opening checkpoint lost to damage: nothing before it restates
/// what the period carried over, so the journal is refused, not read as a first period.
@MainActor @Test func aPeriodsLostOpeningCheckpointIsRefused() async throws {
  let till = try Till()
  var store: DurableStore<Tea>? = try till.open()
  try store?.send(.order("chai"))
  await store?.finish()
  try store?.closePeriod(into: "period-1.journal")
  // A record after it: the checkpoint is not the journal's torn tail.
  try store?.send(.order("sencha"))
  await store?.finish()
  store = nil
  var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: till.path)))
  bytes[JournalFormat.headerSize + JournalFormat.frameSize + 2] ^= 0x01
  try Data(bytes).write(to: URL(fileURLWithPath: till.path))
  _ = try DurableJournal.repair(path: till.path)

  #expect {
    _ = try till.open()
  } throws: { error in
    guard case .replay(let sequence, let reason) = error as? DurableStoreError else { return false }
    return sequence == 1 && reason.contains("lost to damage")
  }
}

/// A checkpoint lost to damage and repaired as a placeholder loses nothing:
/// the records around it hold the same state, and the store opens from the one before.
@MainActor @Test func aCheckpointLostToDamageIsSteppedOverOnOpen() async throws {
  let till = try Till()
  var store: DurableStore<Tea>? = try till.open()
  try store?.send(.order("chai"))
  await store?.finish()
  try store?.checkpoint()
  try store?.send(.order("sencha"))
  await store?.finish()
  store = nil
  let mark = try #require(try DurableJournal(path: till.path).lastCheckpoint)
  var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: till.path)))
  bytes[mark.offset + JournalFormat.frameSize + 2] ^= 0x01
  try Data(bytes).write(to: URL(fileURLWithPath: till.path))
  _ = try DurableJournal.repair(path: till.path)

  let reopened = try till.open()
  await reopened.finish()
  #expect(reopened.state.ordered == ["chai", "sencha"])
  #expect(reopened.state.charged == ["chai", "sencha"])
  #expect(till.cards.charges == ["chai", "sencha"])
}
