import Clock
import DurableStore
import Foundation
import Journal
import KioskCommands
import Menu
import Payment
import Synchronization
import Tabs
import Testing

@testable import KioskApp

/// A journal path in a fresh folder, removed at the end of the test.
final class TemporaryJournal {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kioskapp-\(UUID().uuidString)")
  var path: String { folder.appendingPathComponent("kiosk.journal").path }

  init() throws { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
  deinit { try? FileManager.default.removeItem(at: folder) }

  var bytes: Data { FileManager.default.contents(atPath: path) ?? Data() }

  /// The till on this journal, as `kiosk` opens it, but with one attempt per
  /// processor call: a lost answer or a timeout surfaces at once, without
  /// retries. A new journal is begun in `newFileVersion` (a journal of
  /// format 2 as a till of an earlier release began it); a checkpoint
  /// follows every `checkpointEvery` records; the processor acts out
  /// `fault`; the till stops where `crashSeam` throws.
  @MainActor func openTill(
    newFileVersion: UInt16 = JournalFormat.version, checkpointEvery: Int = TillShell.defaultCheckpointInterval,
    effects: EffectEnvironment = .oneAttempt, fault: ProcessorFault? = nil,
    crashSeam: (@Sendable (CrashPoint) throws(SimulatedCrash) -> Void)? = nil
  ) async throws -> TillShell {
    if newFileVersion != JournalFormat.version, !FileManager.default.fileExists(atPath: path) {
      _ = try DurableJournal(path: path, newFileVersion: newFileVersion)
    }
    return try await TillShell.open(
      journal: path, ledger: nil, lockWait: DurableJournal.defaultLockWait, fault: fault, effects: effects,
      checkpointEvery: checkpointEvery, crashSeam: crashSeam)
  }
}

extension TemporaryJournal {
  /// Every record after the journal's last checkpoint (every record, in a journal with none).
  func records() throws -> [KioskRecord] {
    let recovery = try DurableJournal.read(path: path)
    return try (0..<recovery.count).filter { !recovery.isCheckpoint($0) }.map {
      try KioskRecord.decoded(from: recovery.payload($0), version: recovery.version, decoder: JSONDecoder())
    }
  }

  /// The processor's movements, read with no store or shell holding the ledger.
  func movements() throws -> [ProcessorLedger.Entry] {
    try LocalProcessor(path: LocalProcessor.defaultPath(besideJournal: path)).entries
  }
}

extension TemporaryJournal {
  /// The till feature on this journal through the framework's store alone,
  /// its processor the ledger beside the journal.
  @MainActor func openStore(
    checkpointBytes: Int = 1 << 20, fault: ProcessorFault? = nil,
    seam: (@Sendable (CrashPoint) throws(SimulatedCrash) -> Void)? = nil
  ) throws -> DurableStore<KioskTill> {
    var options = DurableStoreOptions(checkpointBytes: checkpointBytes)
    options.crashSeam = seam
    return try DurableStore<KioskTill>.open(
      at: path, initial: KioskTill.State(), environment: try tillServices(fault: fault), options: options)
  }

  /// The store's services: the processor's ledger beside the journal, the system clock.
  func tillServices(fault: ProcessorFault? = nil) throws -> KioskTill.Services {
    KioskTill.Services(
      processor: try SharedProcessor(path: LocalProcessor.defaultPath(besideJournal: path), fault: fault))
  }

  /// The payloads of the journal's records, in a journal with no checkpoint.
  func recordPayloads() throws -> [[UInt8]] {
    let recovery = try DurableJournal.read(path: path)
    #expect(recovery.lastCheckpoint == nil, "a reader starts at the last checkpoint")
    return (0..<recovery.count).map { Array(recovery.payload($0)) }
  }
}

/// The sequence number of the journal's last record: a writer that kept the
/// settled-tabs file writes no checkpoint to vouch for it again.
func lastSequence(_ path: String) throws -> UInt64 {
  let recovery = try DurableJournal.read(path: path)
  return recovery.sequence(recovery.count - 1)
}

/// Stops a till at the first crash point it reaches that `arm` names, as a
/// crash would: `point` itself, or, with `after`, the first such point once
/// one `after` names has passed (an outcome's record is the first
/// `afterRecord` after the processor answered).
final class StopAt: Sendable {
  private struct Plan {
    var matches: @Sendable (CrashPoint) -> Bool
    var after: (@Sendable (CrashPoint) -> Bool)?
  }
  private let plan = Mutex<Plan?>(nil)

  /// Stops the till at the next `point`.
  func arm(_ point: CrashPoint) { arm { $0 == point } }

  /// Stops the till at the next point `matches` names, once one `after` names has passed.
  func arm(_ matches: @escaping @Sendable (CrashPoint) -> Bool, after: (@Sendable (CrashPoint) -> Bool)? = nil) {
    plan.withLock { $0 = Plan(matches: matches, after: after) }
  }

  /// The till's crash seam.
  var seam: @Sendable (CrashPoint) throws(SimulatedCrash) -> Void {
    { point throws(SimulatedCrash) in
      let stop = self.plan.withLock { plan -> Bool in
        guard let armed = plan else { return false }
        if let after = armed.after {
          if after(point) { plan?.after = nil }
          return false
        }
        return armed.matches(point)
      }
      if stop { throw SimulatedCrash() }
    }
  }
}

extension EffectEnvironment {
  /// The system clock, one attempt of two seconds per processor call, no jitter, a direct network.
  static let oneAttempt = EffectEnvironment(
    clock: SystemClock(), jitter: .none, policy: .singleAttempt, network: .direct)
}

extension TillShell {
  /// How many commands `undo` can take back.
  var undoDepth: Int { store.state.history.count }

  /// The processor's movements, as the till's ledger holds them.
  var processorLedger: [LocalProcessor.Entry] { store.environment.processor.ledger.entries }

  /// The journal's payments against the processor's ledger, as `kiosk audit` reads them.
  func paymentAudit() throws -> PaymentAudit {
    try PaymentAudit.of(journal: journalPath, ledger: store.environment.processor.path)
  }

  /// The open tabs, as `board` lists them.
  var board: [BoardEntry] { get throws { try view(withLedger: false).board } }
}

let latte = Item.ID(raw: 1)
let espresso = Item.ID(raw: 4)
