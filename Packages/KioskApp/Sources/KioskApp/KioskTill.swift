import DurableStore
import FeatureKit
import KioskCommands
import Menu
import Stock
import Tabs

/// The till as a feature of the framework's `DurableStore`, journaled in the
/// kiosk's own records (`KioskTillFormat`): the way `KioskShell` becomes the
/// store's client (issue 41, docs/durable-store.md, "The kiosk on the store").
///
/// A command sent (`command`) runs the code the shell and the scenarios run
/// and is journaled as the record it makes; a record read back (`record`) is
/// applied as the shell's replay applies it, checks included, so the store
/// opens a day the shell wrote and the shell one the store wrote. The store
/// runs the commands that move no money: opening a tab, adding and removing
/// items, restocking, undoing those, naming the till. Settling, and a day
/// that holds payments, are still the shell's: a settle sent, or the undo of
/// one, is refused with that reason, and a day with a payment record is
/// refused on open.
public enum KioskTill: DurableFeature {
  /// No request yet: the processor joins through intents once settling is on the store.
  public typealias Request = NoRequest
  /// The kiosk's own records and checkpoints.
  public typealias Format = KioskTillFormat

  /// What the till keeps: the slices, the undo history (the kiosk's own, so
  /// the store's undo stack goes unused), the till's name, and whether the
  /// day has its first record.
  public struct State: Equatable, Sendable {
    /// The menu, stock and tabs.
    public var slices: KioskSnapshot
    /// What `undo` can revert, oldest first.
    public var undo: [UndoHistory.Entry]
    /// The till's name in its chain; nil while it has none.
    public var till: String?
    /// Whether the menu and stock are in (`initialize`, or a checkpoint).
    /// Send `initialize` first: a checkpoint or a close taken before it is
    /// read back as a day that has them.
    public var initialized: Bool

    /// A till; a new day's, with nothing in it, by default.
    public init(
      slices: KioskSnapshot = KioskSnapshot(), undo: [UndoHistory.Entry] = [], till: String? = nil,
      initialized: Bool = false
    ) {
      self.slices = slices
      self.undo = undo
      self.till = till
      self.initialized = initialized
    }
  }

  /// A step: what the app sends (`initialize`, `command`, `nameTill`), or a
  /// record read back from the journal (`record`).
  public enum Action: Equatable, Sendable {
    /// A new day's first record: its menu and stock. Refused when an amount
    /// has no canonical form (the shell's rule for a journal of version 3).
    case initialize(menu: MenuState, stock: StockState)
    /// Runs a command as the shell does.
    case command(KioskAction)
    /// Names the till in its chain, as `KioskShell.nameTill` does: a name
    /// that is no till's name is refused; the name it has already journals nothing.
    case nameTill(String)
    /// Applies a record read back from the journal as the shell's replay
    /// does, checks included, whatever amounts it holds.
    case record(KioskRecord)
  }

  /// What a step did: the record it journals, or why it journals none.
  public struct Outcome: Equatable, Sendable {
    /// The record journaled for the step; nil when it did nothing.
    public var record: KioskRecord?
    /// The domain's refusal of a command.
    public var refusal: ActionRefusal?
    /// Why a step did nothing that the domain did not refuse: a record that
    /// does not apply to the state, or a step the store does not run yet.
    public var reason: String?

    /// An outcome.
    public init(record: KioskRecord?, refusal: ActionRefusal? = nil, reason: String? = nil) {
      self.record = record
      self.refusal = refusal
      self.reason = reason
    }
  }

  /// The till asks for no effect inside a step: the processor is called
  /// through intents, once settling is on the store.
  public struct Effect: Equatable, Sendable {}

  /// Why the store does not run a payment yet.
  static let paymentsNotYet = "payments are not yet run on the durable store; KioskShell runs them"

  public static func name(of action: Action) -> String {
    switch action {
    case .initialize: "initialize"
    case .command(let command): command.name
    case .nameTill: "nameTill"
    case .record: "record"
    }
  }

  public static func step(_ state: inout State, _ action: Action) -> StepResult<Effect, Outcome> {
    StepResult(effects: [], outcome: outcome(of: action, on: &state))
  }

  /// Nothing journaled: a refusal, an undo with nothing to undo, a step not run.
  public static func isRefusal(_ outcome: Outcome) -> Bool { outcome.record == nil }

  /// A record read back that applies to nothing journals nothing either: the day does not replay.
  public static func replayFailure(_ outcome: Outcome) -> String? {
    guard outcome.record == nil else { return nil }
    return outcome.reason ?? outcome.refusal.map { "\($0.error)" } ?? "it does nothing"
  }

  /// A new day begins from the open tabs, the menu and the stock, with nothing
  /// settled and nothing to undo (the shell's `closeDay`).
  public static func nextPeriod(from state: State) -> State {
    State(slices: state.slices.carriedOver, undo: [], till: state.till, initialized: true)
  }

  /// Runs `action` on `state`, which it changes only when it returns a record.
  ///
  /// The slices leave the state while the step runs, so it changes them in
  /// place rather than copying every tab: a step costs its own work. Every
  /// command and every record checks before it writes, so one that does
  /// nothing has changed nothing, and the slices go back as they are.
  private static func outcome(of action: Action, on state: inout State) -> Outcome {
    var world = ReplayWorld()
    world.restore(state.slices)
    state.slices = KioskSnapshot()
    defer { state.slices = world.snapshot }
    var history = UndoHistory(entries: state.undo)
    let outcome: Outcome
    switch action {
    case .initialize(let menu, let stock):
      let record = KioskRecord.initialized(menu: menu, stock: stock)
      if let amount = record.amountWithoutCanonicalForm {
        return Outcome(record: nil, reason: "\(amount) cannot be journaled")
      }
      outcome = apply(record, on: &world, history: &history, state: &state)
    case .command(let command):
      guard state.initialized else { return Outcome(record: nil, reason: "the day has no menu and stock yet") }
      outcome = run(command, on: &world, history: &history)
    case .nameTill(let name):
      guard HeadOfficeSync.isTillName(name) else { return Outcome(record: nil, reason: "'\(name)' is no till's name") }
      guard state.till != name else { return Outcome(record: nil) }
      outcome = apply(.tillNamed(till: name), on: &world, history: &history, state: &state)
    case .record(let record):
      outcome = apply(record, on: &world, history: &history, state: &state)
    }
    guard outcome.record != nil else { return outcome }
    state.undo = history.entries
    return outcome
  }

  /// A command, as `KioskShell` runs it: checks first, its record and inverse after.
  private static func run(_ command: KioskAction, on world: inout ReplayWorld, history: inout UndoHistory)
    -> Outcome
  {
    guard case .undo = command else {
      do {
        // Their records hold no amount, so every one has a form in every version.
        guard let entry = try world.runWithoutMoney(command) else {
          return Outcome(record: nil, reason: paymentsNotYet)
        }
        history.push(entry)
        return Outcome(record: entry.record)
      } catch {
        return Outcome(record: nil, refusal: error)
      }
    }
    switch history.plan {
    case .nothing: return Outcome(record: nil)
    case .refund: return Outcome(record: nil, reason: paymentsNotYet)
    case .revert(let newest):
      return Outcome(record: world.applyUndo(of: newest, refund: nil, key: nil, history: &history))
    }
  }

  /// A record, as the shell's replay applies it (`KioskReplay`): the same
  /// checks (the first record initializes, and only it), so one that does
  /// not apply to the state is found.
  private static func apply(
    _ record: KioskRecord, on world: inout ReplayWorld, history: inout UndoHistory, state: inout State
  ) -> Outcome {
    switch record {
    case .paymentIntent, .paymentAbandoned, .settled, .undone(refund: .some, _):
      return Outcome(record: nil, reason: paymentsNotYet)
    case .dayClosed:
      return Outcome(record: nil, reason: "a day is closed by closing the store's period")
    default: break
    }
    var progress = KioskReplay.Progress()
    progress.history = history
    progress.till = state.till
    do {
      // Its place in the journal only tells whether it is the first record.
      try KioskReplay.apply(record, sequence: state.initialized ? 2 : 1, to: &world, progress: &progress)
    } catch {
      return Outcome(record: nil, reason: error.reason)
    }
    history = progress.history
    state.till = progress.till
    state.initialized = true
    return Outcome(record: record)
  }
}

extension DurableStore where Model == KioskTill {
  /// Closes the day as `kiosk close-day` does: into the archive the shell
  /// names (`KioskSegments.archiveName`, `<journal>.day-NNNN`) beside the
  /// journal, so the shell and its verifier find it (use this, not
  /// `closePeriod(into:)`, whose archive the day's records name as given).
  /// A close asked for again after a crash cut it short, which opening the
  /// store finished, with nothing done since, closes nothing more; it
  /// returns the day that closed.
  @discardableResult
  public func closeDay() throws(DurableStoreError) -> Int {
    if let finished = closeFinishedOnOpen { return finished.period + 1 }
    let day = period + 1
    try closePeriod(into: KioskSegments.archiveName(of: path, day: day))
    return day
  }
}
