import DurableStore
import Foundation
import Journal
import Synchronization
import Testing

/// Closing a period against what a hostile caller or a second process does:
/// no archive takes one of the store's own names, a rename that fails loses
/// nothing, and a second `open` during a close waits for the lock.
@MainActor @Suite struct PeriodCloseTests {
  @Test(arguments: [".next", ".checkpoints", ".next.checkpoints"])
  func noArchiveTakesOneOfTheStoresOwnNames(_ suffix: String) async throws {
    let till = try Till()
    var store: DurableStore<Tea>? = try till.open()
    try store?.send(.order("sencha"))
    await store?.finish()
    #expect(throws: DurableStoreError.archiveExists(path: till.path + suffix)) {
      try store?.closePeriod(into: till.path + suffix)
    }
    try store?.send(.order("bancha"))
    await store?.finish()
    store = nil
    let reopened = try till.open()
    #expect(reopened.state.ordered == ["sencha", "bancha"])
    #expect(reopened.period == 0)
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

  @Test func aSecondOpenDuringAPeriodCloseWaitsForTheLockAndRemovesNothing() async throws {
    let till = try Till()
    let path = till.path
    let secondOpen = SecondOpen()
    till.options.crashSeam = { (point: CrashPoint) throws(SimulatedCrash) in
      guard point == .periodNextWritten else { return }
      let other = MainActor.assumeIsolated { Till.reopen(at: path) }
      secondOpen.result.withLock { $0 = other }
    }
    var store: DurableStore<Tea>? = try till.open()
    try store?.send(.order("kukicha"))
    await store?.finish()
    try store?.closePeriod(into: till.folder.path("day-1.journal"))
    let second = secondOpen.result.withLock { $0 } ?? "none"
    #expect(second.hasPrefix("locked"), "the second open: \(second)")
    try store?.send(.order("genmaicha"))
    await store?.finish()
    store = nil
    till.options.crashSeam = nil
    let reopened = try till.open()
    #expect(reopened.period == 1)
    #expect(reopened.state.ordered == ["kukicha", "genmaicha"])
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
