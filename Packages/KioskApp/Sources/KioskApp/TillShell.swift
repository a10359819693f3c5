import DurableStore
import Journal
import KioskCommands
import Menu
import Payment
import Tabs

/// The till as `kiosk` runs it: the till feature (`KioskTill`) on the
/// framework's durable store, opened with the kiosk's checks
/// (`DurableStore.openTill`), with the kiosk's policy around it: the open
/// intents asked about before any command runs, and what that found kept
/// for the person at the till (`reconciled`); the processor's movements a
/// settle or an undo adopted instead of moving money again (`adoptions`); a
/// payment the processor answered nothing about left open (exit 75) for the
/// next writer; and the day's close checked against a replay of its journal.
/// The journal, the intents, the checkpoints and the day's archive are the
/// store's; nothing here writes a file.
@MainActor
public final class TillShell {
  /// The till on the store.
  public let store: DurableStore<KioskTill>
  /// What asking about open intents resolved since the till opened, oldest first.
  // Read before every command: not checked for exclusive access at run time
  // (the shell is `@MainActor`, and nothing runs inside its accesses).
  @exclusivity(unchecked) public private(set) var reconciled: [IntentReconciliation] = []
  /// How many of `reconciled` came before the command now running: those
  /// after were resolved on its way in (when the till opened, or before it ran).
  @exclusivity(unchecked) var reconciledBeforeCommand = 0
  /// The processor's movements settles and undos took as their outcomes
  /// since the till opened, instead of moving money again, oldest first.
  public private(set) var adoptions: [Adoption] = []
  /// What opening the journal found (a torn tail dropped, and where it was saved).
  public let journalRecovery: JournalRecovery
  /// Records between checkpoints, at least: replay on open stays short.
  public static let defaultCheckpointInterval = 1_000
  /// Records a command's open may replay before the command checkpoints
  /// first (with at least as many bytes as the last checkpoint): each
  /// `kiosk` command is a process that replays what follows the last
  /// checkpoint, while a `kiosk shell` session replays once.
  public static let replayedCheckpointInterval = 100

  private init(store: DurableStore<KioskTill>) {
    self.store = store
    journalRecovery = store.recovery
  }

  /// Opens the till on the journal at `journal` and the processor's ledger
  /// at `ledger`, as `kiosk` does: refuses what `openTill` refuses, begins a
  /// new journal with the default menu and stock, and asks the processor
  /// about every intent left open, waiting for its answers (`reconciled`).
  /// Payments run under `effects`' retry policy, over its network; a
  /// checkpoint follows every `checkpointEvery` records (and each MiB), and
  /// comes first when opening replayed `replayedCheckpointInterval` (or
  /// `checkpointEvery`, when fewer).
  public static func open(
    journal: String, ledger: String? = nil, lockWait: Duration = DurableJournal.defaultLockWait,
    fault: ProcessorFault? = nil, effects: EffectEnvironment = .live,
    checkpointEvery: Int = TillShell.defaultCheckpointInterval
  ) async throws -> TillShell {
    try await open(
      journal: journal, ledger: ledger, lockWait: lockWait, fault: fault, effects: effects,
      checkpointEvery: checkpointEvery, crashSeam: nil)
  }

  /// Opens the till as `open(journal:…)` does, stopped where `crashSeam`
  /// throws, as a crash would: for tests.
  static func open(
    journal: String, ledger: String?, lockWait: Duration, fault: ProcessorFault?, effects: EffectEnvironment,
    checkpointEvery: Int, crashSeam: (@Sendable (CrashPoint) throws(SimulatedCrash) -> Void)?
  ) async throws -> TillShell {
    var options = DurableStoreOptions(lockWait: lockWait, effectPolicy: KioskTill.effectPolicy(effects.policy))
    options.checkpointRecords = checkpointEvery
    options.checkpointRecordsReplayed = min(checkpointEvery, replayedCheckpointInterval)
    options.crashSeam = crashSeam
    // Before a command, as the kiosk writes them: a checkpoint comes before the record of the
    // command that made it due (none, when the kiosk refuses the command: it then ends the journal).
    options.checkpointsAfterSteps = false
    options.jitter = effects.jitter.next
    let store = try DurableStore<KioskTill>.openTill(
      at: journal, ledger: ledger, fault: fault, clock: effects.clock, options: options,
      line: ProcessorLine(network: effects.network, timeout: effects.policy.attemptTimeout))
    if !store.state.initialized {
      let first = try store.send(.initialize(menu: KioskDefaults.menu, stock: KioskDefaults.stock))
      if first.outcome.record == nil { throw DurableStore<KioskTill>.refusal(first.outcome) }
    }
    let shell = TillShell(store: store)
    try await shell.awaitReconciliation(of: store.openIntents.map(\.key))
    return shell
  }

  /// What runs before any command that writes: a checkpoint when one is
  /// due, then every intent left open unanswered is asked about again, and
  /// what that resolved is kept.
  func prepareToWrite() async throws {
    try store.checkpointIfDue()
    let reopened = store.reconcileOpenIntents()
    // Before every command: no call to wait through when no intent is open.
    if !reopened.isEmpty { try await awaitReconciliation(of: reopened) }
    reconciledBeforeCommand = reconciled.count
  }

  /// Waits for the store's answers about the open intents `keys`, and keeps
  /// what each resolved; throws, exit 75, when the processor answered
  /// nothing about one (it stays open for the next writer).
  private func awaitReconciliation(of keys: [IntentKey]) async throws {
    let payments = keys.compactMap { key in
      store.openIntents.first { $0.key == key }.map { $0.request.intent(key: IdempotencyKey(key.text)) }
    }
    guard !payments.isEmpty else { return }
    // A refund completed reverts the newest command: the settle it gives back.
    let newest = store.state.history.last?.record
    let outcomes = await store.outcomes(of: payments.map { IntentKey(text: $0.key.raw) })
    var unresolved: TillError?
    for (payment, closed) in zip(payments, outcomes) {
      guard let closed else { throw store.notClosed() }
      if let unanswered = closed.unanswered {
        let left = store.leftOpen(payment.key, unanswered)
        unresolved = unresolved ?? left
        continue
      }
      if closed.abandoned != nil {
        switch store.environment.processor.status(of: payment.key) {
        case .charged(let reference, _), .refunded(let reference, _, _):
          reconciled.append(IntentReconciliation(intent: payment, resolution: .keyUsedBefore(reference: reference)))
        case .unknown:
          reconciled.append(IntentReconciliation(intent: payment, resolution: .abandoned))
        }
      } else if case .settled(let receipt)? = closed.outcome?.record {
        reconciled.append(IntentReconciliation(intent: payment, resolution: .completed(reference: receipt.reference)))
      } else if case .undone(let refund?, _)? = closed.outcome?.record {
        reconciled.append(
          IntentReconciliation(intent: payment, resolution: .completed(reference: refund), undone: newest))
      }
    }
    if let unresolved { throw unresolved }
  }

  /// Keeps `movement`, which a settle or an undo took as its outcome.
  func adopted(_ movement: LocalProcessor.Entry, tab: Tab.ID, receipt: Receipt?) {
    adoptions.append(Adoption(tab: tab, movement: movement, receipt: receipt))
  }
}

extension TillShell {
  /// Every slice.
  public var snapshot: KioskSnapshot { store.state.slices }

  /// The till's name in its chain; nil until it has one.
  public var tillName: String? { store.state.till }

  /// The day the live journal covers, from 1.
  public var day: Int { store.period + 1 }

  /// The day whose close, cut short by a crash, opening finished; nil once
  /// anything was journaled since.
  public var finishedInterruptedClose: Int? { store.closeFinishedOnOpen.map { $0.period + 1 } }

  /// The journal file (the live day's).
  public var journalPath: String { store.path }

  /// What opening the processor's ledger found (a torn tail cut, and where it was saved).
  public var ledgerRecovery: JournalRecovery { store.environment.processor.recovery }

  /// The ledger numbers retired when the till opened, because the journal
  /// names them and the ledger had not given them (a ledger restored from an older copy).
  public var ledgerCaughtUp: ClosedRange<Int>? { store.environment.processor.retiredOnOpen }

  /// The open tab `id`, if there is one.
  public func tab(_ id: Tab.ID) -> Tab? { store.state.slices.tabs.open[id] }

  /// The menu's items for `lines`, in order (a line not on the menu is left out).
  public func items(_ lines: [Item.ID]) -> [Item] { lines.compactMap { store.state.slices.menu.items[$0] } }

  /// The day's settled tabs, as `board --all` lists them.
  public func settledListing() throws -> SettledListing { try store.settledListing() }

  /// What the reading commands show, from the till's state; with
  /// `withLedger`, the processor's whole ledger too, read from its file.
  public func view(withLedger: Bool) throws -> KioskView {
    let processor = store.environment.processor
    let ledger = processor.ledger
    var view = KioskView(
      snapshot: store.state.slices, day: day,
      openIntents: store.openIntents.map { $0.request.intent(key: IdempotencyKey($0.key.text)) },
      ledger: ledger.entries, ledgerLost: ledger.lostNumbers, unreadTailBytes: 0)
    if withLedger {
      let whole = try KioskView.readLedgerFile(processor.path)
      (view.ledger, view.ledgerLost) = (whole.entries, whole.lost)
    }
    return view
  }
}
