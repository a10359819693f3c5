import DurableStore
import FeatureKit
import Journal
import KioskCommands
import Menu
import Payment
import Stock
import Tabs

/// The till as a feature of the framework's `DurableStore`, journaled in the
/// kiosk's own records (`KioskTillFormat`): the way the kiosk becomes the
/// store's client (issue 41, docs/durable-store.md, "The kiosk on the store").
///
/// A command sent (`command`) runs the code the scenarios run and is
/// journaled as the record it makes; a record read back (`record`) is applied
/// as the kiosk's replay (`KioskReplay`) applies it, checks included, so the
/// store opens every day the kiosk wrote before it ran on the store. A settle is
/// the store's intent: journaled as `paymentIntent` under the kiosk's key,
/// charged off the main actor through the processor in the environment, and
/// closed by `settled` or `paymentAbandoned` (`KioskTill+Payments.swift`);
/// the undo of a settle is a refund's intent, closed by `undone` with the
/// refund's reference.
public enum KioskTill: DurableFeature {
  /// A charge of a tab (the processor's movements).
  public typealias Request = KioskPayment
  /// The kiosk's own records and checkpoints.
  public typealias Format = KioskTillFormat
  /// The processor, and the clock receipts are stamped by.
  public typealias Environment = Services

  /// What the till keeps: the slices, the undo history (the kiosk's own, so
  /// the store's undo stack goes unused), the till's name, whether the day
  /// has its first record, and the payments in flight.
  public struct State: Equatable, Sendable {
    /// The menu, stock and tabs.
    public var slices: KioskSnapshot
    /// What `undo` can revert (the kiosk's history, bounded alike).
    public var history: UndoHistory
    /// What `undo` can revert, oldest first.
    public var undo: [UndoHistory.Entry] { history.entries }
    /// The till's name in its chain; nil while it has none.
    public var till: String?
    /// Whether the menu and stock are in (`initialize`, or a checkpoint).
    /// Send `initialize` first: a checkpoint or a close taken before it is
    /// read back as a day that has them.
    public var initialized: Bool
    /// The tabs with a charge in flight, in the order they began: no command
    /// changes them, and their stock is kept for them, until it closes.
    public var paying: [Tab.ID]
    /// The settled tab whose refund is in flight (the undo of its settle):
    /// every command waits for it, since its outcome pops the undo history.
    public var refunding: Tab.ID?
    /// Whether the day journaled a payment intent (its checkpoints say so).
    public var paymentsJournaled: Bool
    /// What the last checkpoint kept of the world outside the journal, as
    /// the kiosk's checkpoints keep it (`checkpointing`).
    public var kept: Kept
    /// The settled-tabs file's entries the records since the last checkpoint
    /// made (a settle, the undo of one), oldest first: the next checkpoint
    /// writes them to the file (`SettledTabsWriter`).
    public var settledSinceCheckpoint: [SettledTabsEntry] = []

    /// A till; a new day's, with nothing in it, by default.
    public init(
      slices: KioskSnapshot = KioskSnapshot(), undo: [UndoHistory.Entry] = [], till: String? = nil,
      initialized: Bool = false, paying: [Tab.ID] = [], refunding: Tab.ID? = nil, paymentsJournaled: Bool = false,
      kept: Kept = Kept()
    ) {
      self.slices = slices
      self.history = UndoHistory(entries: undo)
      self.till = till
      self.initialized = initialized
      self.paying = paying
      self.refunding = refunding
      self.paymentsJournaled = paymentsJournaled
      self.kept = kept
    }
  }

  /// What a checkpoint keeps of the files beside the journal, which no
  /// record says (`KioskCheckpoint`'s fields of the same names).
  public struct Kept: Equatable, Sendable {
    /// Where the day's settled-tabs file stood: nil when no checkpoint
    /// vouched for it (the file is then rebuilt); empty on a new day.
    public var settledTabs: DerivedLog.Mark?
    /// Where the day's movements begin in the processor's ledger; nil on day 1.
    public var ledgerStart: JournalAnchor?
    /// How many numbers the processor's ledger had given.
    public var ledgerNumbersUsed: Int?

    /// What a checkpoint kept; a new day's by default.
    public init(
      settledTabs: DerivedLog.Mark? = .empty, ledgerStart: JournalAnchor? = nil, ledgerNumbersUsed: Int? = nil
    ) {
      self.settledTabs = settledTabs
      self.ledgerStart = ledgerStart
      self.ledgerNumbersUsed = ledgerNumbersUsed
    }
  }

  /// A step: what the app sends (`initialize`, `command`, `settle`, `undo`,
  /// `nameTill`); what the processor's answers feed back (`charged`,
  /// `refunded`, `released`); or a record read back from the journal
  /// (`record`, and `intent` for a payment's).
  public enum Action: Equatable, Sendable {
    /// A new day's first record: its menu and stock. Refused when an amount
    /// has no canonical form (a new journal is of version 3).
    case initialize(menu: MenuState, stock: StockState)
    /// Runs a command. A settle's charge, and an undo's
    /// refund, go under the key it names (a movement the processor holds,
    /// adopted); `settle` and `undo` let the store name it.
    case command(KioskAction)
    /// Settles a tab: checks it and opens the charge's
    /// intent under the key the store names, `k_<salt>_<sequence>_t<tab>`.
    case settle(Tab.ID)
    /// Undoes the newest command on the undo history: at once, or, for a
    /// settle, by opening its refund's intent under the key the store names.
    case undo
    /// Names the till in its chain, as `TillShell.nameTill` does: a name
    /// that is no till's name is refused; the name it has already journals nothing.
    case nameTill(String)
    /// A record read back from the journal, applied as the kiosk's replay
    /// applies it, checks included, whatever amounts it holds; never sent (a
    /// payment's records read back are `intent`, `charged` and `refunded`,
    /// but for a day of format 1's keyless `settled` and `undone`).
    case record(KioskRecord)
    /// A payment's intent read back: the payment is in flight again, under
    /// its key, when it is the one the state would ask for now.
    case intent(PaymentIntent)
    /// A tab's charge went through: settles it with the receipt.
    case charged(Receipt)
    /// The refund of the newest settle went through under `key`: reverts the settle.
    case refunded(reference: String, key: IdempotencyKey)
    /// The payment of `tab` was given up (declined, or never made): a charged
    /// tab is open again to commands, its stock no longer kept; a refunded one
    /// stays settled.
    case released(tab: Tab.ID)
  }

  /// What a step did: the record it journals, the payment it asks for, or
  /// why it did nothing. A reference, immutable: the store hands a step's
  /// outcome through several places, and each copy is then one retain rather
  /// than a copy of every field.
  public final class Outcome: Equatable, Sendable {
    /// The record journaled for the step; nil when it did nothing, and for a
    /// settle sent, whose `paymentIntent` names the key the store gives it.
    public let record: KioskRecord?
    /// The payment the step asks the processor for.
    public let payment: KioskPayment?
    /// The tab whose payment the step gave up.
    public let released: Tab.ID?
    /// The domain's refusal of a command.
    public let refusal: ActionRefusal?
    /// Why a step did nothing that the domain did not refuse: a record that
    /// does not apply to the state, or a payment that is not in flight.
    public let reason: String?

    /// An outcome.
    public init(
      record: KioskRecord?, refusal: ActionRefusal? = nil, reason: String? = nil, payment: KioskPayment? = nil,
      released: Tab.ID? = nil
    ) {
      self.record = record
      self.refusal = refusal
      self.reason = reason
      self.payment = payment
      self.released = released
    }

    /// Whether the step changed anything: a record, a payment begun or given up.
    var didSomething: Bool {
      // Matched, not compared with nil: a comparison copies the record out first.
      if case .some = record { return true }
      if case .some = payment { return true }
      return released != nil
    }

    /// Two outcomes are equal when every field is.
    public static func == (lhs: Outcome, rhs: Outcome) -> Bool {
      lhs.record == rhs.record && lhs.payment == rhs.payment && lhs.released == rhs.released
        && lhs.refusal == rhs.refusal && lhs.reason == rhs.reason
    }
  }

  /// The till asks for no effect inside a step: the processor is called
  /// through intents.
  public struct Effect: Equatable, Sendable {}

  public static func name(of action: Action) -> String {
    switch action {
    case .initialize: "initialize"
    case .command(let command): command.name
    case .settle: "settle"
    case .undo: "undo"
    case .nameTill: "nameTill"
    case .record: "record"
    case .intent: "intent"
    case .charged: "charged"
    case .refunded: "refunded"
    case .released: "released"
    }
  }

  /// The app sends commands; records and intents read back, and what the
  /// processor's answers feed back, are the store's own.
  public static func isSendable(_ action: Action) -> Bool {
    switch action {
    case .initialize, .command, .settle, .undo, .nameTill: true
    case .record, .intent, .charged, .refunded, .released: false
    }
  }

  public static func step(_ state: inout State, _ action: Action) -> StepResult<Effect, Outcome> {
    StepResult(effects: [], outcome: outcome(of: action, on: &state))
  }

  /// Nothing journaled: a refusal, an undo with nothing to undo, a step not run.
  public static func isRefusal(_ outcome: Outcome) -> Bool { !outcome.didSomething }

  /// A record read back that applies to nothing journals nothing either: the day does not replay.
  public static func replayFailure(_ outcome: Outcome) -> String? {
    guard !outcome.didSomething else { return nil }
    return outcome.reason ?? outcome.refusal.map { "\($0.error)" } ?? "it does nothing"
  }

  /// A new day begins from the open tabs, the menu and the stock, with nothing
  /// settled and nothing to undo (`kiosk close-day`). No payment is in
  /// flight then: a day closes with none open (`closeDay()`). Whether the
  /// till's journals hold payments carries over in the opening checkpoint:
  /// a ledger that goes missing after is found.
  public static func nextPeriod(from state: State) -> State {
    State(
      slices: state.slices.carriedOver, undo: [], till: state.till, initialized: true,
      paymentsJournaled: state.paymentsJournaled, kept: Kept(ledgerNumbersUsed: state.kept.ledgerNumbersUsed))
  }

  /// A checkpoint keeps what the kiosk's keep: where the day's settled-tabs
  /// file stands, brought up to date and synced (empty on a new day, whose
  /// file starts empty), how many numbers the processor's ledger has given,
  /// and, on a new day, where its movements begin: the ledger's end now.
  /// With no file to write (`Services.settledTabs` nil) the file is vouched
  /// for only while the till has journaled no payment, which settles nothing.
  public static func checkpointing(_ state: State, opensPeriod: Bool, environment: Services) -> State {
    var next = state
    let processor = environment.processor
    next.kept.ledgerNumbersUsed = processor.numbersUsed
    if opensPeriod {
      environment.settledTabs?.close()
      next.kept.ledgerStart = processor.endAnchor
      next.kept.settledTabs = .empty
    } else if let writer = environment.settledTabs {
      next.kept.settledTabs = writer.checkpoint(state.settledSinceCheckpoint)
    } else {
      next.kept.settledTabs = state.paymentsJournaled ? nil : .empty
    }
    next.settledSinceCheckpoint = []
    return next
  }

  /// Runs `action` on `state`, which it changes only when it does something.
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
    // The history leaves the state too, so a push changes it in place.
    var history = state.history.take()
    defer { state.history = history }
    let outcome: Outcome
    switch action {
    case .initialize(let menu, let stock):
      let record = KioskRecord.initialized(menu: menu, stock: stock)
      if let amount = record.amountWithoutCanonicalForm {
        // A new journal is of the canonical version, which holds whole cents under its limit.
        let refusal =
          exactMinorUnits(of: amount) == nil
          ? TillError.amountInFractionsOfACent(amount: amount) : TillError.amountPastLimit(amount: amount)
        return Outcome(record: nil, reason: refusal.description)
      }
      outcome = apply(record, on: &world, history: &history, state: &state)
    case .command, .settle, .undo:
      guard state.initialized else { return Outcome(record: nil, reason: "the day has no menu and stock yet") }
      let command = TillCommand(action)
      if let refused = refusedWhileInFlight(command, state: state) { return refused }
      switch command {
      case .settle(let tab, let key): outcome = startCharge(of: tab, key: key, world: world, state: &state)
      case .undo(let key): outcome = undo(refundKey: key, on: &world, history: &history, state: &state)
      case .plain(let command): outcome = run(command, on: &world, history: &history)
      }
    case .released(let tab):
      outcome = release(tab, state: &state)
    case .nameTill(let name):
      guard HeadOfficeSync.isTillName(name) else { return Outcome(record: nil, reason: "'\(name)' is no till's name") }
      guard state.till != name else { return Outcome(record: nil) }
      if let tab = state.refunding { return inFlight(tab) }
      outcome = apply(.tillNamed(till: name), on: &world, history: &history, state: &state)
    case .record(let record):
      if let refused = refusedRecord(record, state: state) { return refused }
      outcome = apply(record, on: &world, history: &history, state: &state)
    case .intent(let intent):
      outcome = reopenIntent(intent, world: world, history: history, state: &state)
    case .charged(let receipt):
      outcome = completeCharge(receipt, on: &world, history: &history, state: &state)
    case .refunded(let reference, let key):
      outcome = completeRefund(reference: reference, key: key, on: &world, history: &history, state: &state)
    }
    return outcome
  }

  /// A command that moves no money, as the kiosk runs it: checks first,
  /// its record and inverse after.
  private static func run(_ command: KioskAction, on world: inout ReplayWorld, history: inout UndoHistory)
    -> Outcome
  {
    do {
      // Their records hold no amount, so every one has a form in every version.
      guard let entry = try world.runWithoutMoney(command) else {
        preconditionFailure("a settle is the till's intent, and an undo its history's: \(command)")
      }
      history.push(entry)
      return Outcome(record: entry.record)
    } catch {
      return Outcome(record: nil, refusal: error)
    }
  }

  /// An undo: the newest command reverted at once, or a
  /// settle's refund asked for (under `refundKey` when it names one), which
  /// reverts it when it comes back.
  private static func undo(
    refundKey: IdempotencyKey?, on world: inout ReplayWorld, history: inout UndoHistory, state: inout State
  ) -> Outcome {
    switch history.plan {
    case .nothing: return Outcome(record: nil)
    case .refund(_, let receipt): return startRefund(of: receipt, key: refundKey, state: &state)
    case .revert(let newest):
      return Outcome(record: world.applyUndo(of: newest, refund: nil, key: nil, history: &history))
    }
  }

  /// A record, as the kiosk's replay applies it (`KioskReplay`): the same
  /// checks (the first record initializes, and only it), so one that does
  /// not apply to the state is found.
  static func apply(
    _ record: KioskRecord, on world: inout ReplayWorld, history: inout UndoHistory, state: inout State
  ) -> Outcome {
    switch record {
    case .dayClosed:
      return Outcome(record: nil, reason: "a day is closed by closing the store's period")
    default: break
    }
    // The history moves in and back out, never shared, so a push changes it
    // in place: a copy of its 100 entries per record was most of replay's cost.
    // A record that fails changes no history (every one checks before it writes).
    var progress = KioskReplay.Progress(history: history.take(), till: state.till)
    defer { history = progress.history.take() }
    progress.settledTabs = []
    do {
      // Its place in the journal only tells whether it is the first record.
      try KioskReplay.apply(record, sequence: state.initialized ? 2 : 1, to: &world, progress: &progress)
    } catch {
      return Outcome(record: nil, reason: error.reason)
    }
    state.till = progress.till
    state.initialized = true
    if let made = progress.settledTabs, !made.isEmpty { state.settledSinceCheckpoint += made }
    return Outcome(record: record)
  }
}
