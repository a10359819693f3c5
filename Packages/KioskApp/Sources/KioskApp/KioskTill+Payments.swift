import CanonicalJSON
import Clock
import DurableStore
import FeatureKit
import KioskCommands
import Menu
import Payment
import Stock
import Tabs

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

// A settle on the store: the step decides (the kiosk's checks, and the stock
// the charges in flight keep), the store journals the intent under the
// kiosk's key and charges off the main actor, and the processor's answer
// comes back as the `settled` record, or the charge is given up and the tab
// released. The undo of a settle is the same with a refund, whose answer is
// the `undone` record; the tab stays settled until it comes. What the kiosk
// does around them that is policy, not a step (adopting a movement the
// processor holds, asking again under a fresh key), is the app's:
// `DurableStore<KioskTill>.settle(_:)` and `undoNewest()`.

extension KioskTill {
  /// What the till's requests run on: the processor, and the clock a receipt is stamped by.
  public struct Services: Sendable {
    /// The processor, shared with the requests in flight.
    public var processor: SharedProcessor
    /// The clock whose time a receipt carries.
    public var clock: any KioskClock
    /// The day's settled-tabs file, which checkpoints bring up to date; nil
    /// when the till writes none (a checkpoint then vouches for no file once
    /// the till has taken money).
    public var settledTabs: SettledTabsWriter?
    /// How requests reach the processor (`$KIOSK_PROCESSOR_NETWORK`).
    public var line: ProcessorLine

    /// Services.
    public init(
      processor: SharedProcessor, clock: any KioskClock = SystemClock(), settledTabs: SettledTabsWriter? = nil,
      line: ProcessorLine = ProcessorLine()
    ) {
      self.processor = processor
      self.clock = clock
      self.settledTabs = settledTabs
      self.line = line
    }
  }

  /// The reason a charge is given up when its key moved money before (a
  /// journal cut back gives its sequence numbers, so its keys, again): the
  /// app asks again under the next key (`isKeyUsedBefore`).
  static let keyUsedBefore = "the processor already used this key"

  /// Whether `reason`, a charge's abandonment, says only that its key was
  /// used before: nothing moved for it, and a settle may ask again under the next key.
  public static func isKeyUsedBefore(_ reason: String) -> Bool { reason.hasPrefix(keyUsedBefore) }

  /// A command the app sends, sorted for its step: a settle and an undo
  /// under the key they name (a movement the processor holds, adopted) or,
  /// nil, the one the store names; any other command runs as it is.
  enum TillCommand {
    case settle(Tab.ID, key: IdempotencyKey?)
    case undo(key: IdempotencyKey?)
    case plain(KioskAction)

    /// The command `action` (`command`, `settle` or `undo`) sends.
    init(_ action: Action) {
      switch action {
      case .command(.settle(let tab, let key)): self = .settle(tab, key: key)
      case .settle(let tab): self = .settle(tab, key: nil)
      case .command(.undo(let key)): self = .undo(key: key)
      case .undo: self = .undo(key: nil)
      case .command(let command): self = .plain(command)
      default: preconditionFailure("only what the app sends as a command is one: \(action)")
      }
    }
  }

  /// The kiosk's rules while money is in flight: every command waits for a
  /// refund (its outcome pops the undo history); a command on a tab whose
  /// charge is in flight, and any undo, wait for the charge.
  static func refusedWhileInFlight(_ command: TillCommand, state: State) -> Outcome? {
    if let tab = state.refunding { return inFlight(tab) }
    switch command {
    case .plain(.add(_, let tab)), .plain(.remove(_, let tab)), .settle(let tab, _):
      return state.paying.contains(tab) ? inFlight(tab) : nil
    case .undo: return state.paying.first.map(inFlight)
    case .plain: return nil
    }
  }

  /// The same rules for a record sent or read back; and a payment's own
  /// records are never sent as records (they are its intent's and outcomes').
  static func refusedRecord(_ record: KioskRecord, state: State) -> Outcome? {
    switch record {
    case .paymentIntent, .paymentAbandoned, .undone(refund: .some, key: .some):
      return Outcome(record: nil, reason: paymentRecordSent)
    case .settled(let receipt) where receipt.key != nil:
      return Outcome(record: nil, reason: paymentRecordSent)
    default: break
    }
    if let tab = state.refunding { return inFlight(tab) }
    switch record {
    case .added(_, let tab), .removed(_, let tab): return state.paying.contains(tab) ? inFlight(tab) : nil
    case .settled(let receipt): return state.paying.contains(receipt.tab) ? inFlight(receipt.tab) : nil
    case .undone: return state.paying.first.map(inFlight)
    default: return nil
    }
  }

  /// Why a payment's record is not applied as a plain record.
  static let paymentRecordSent = "a payment's records are its intent and its outcome, not records sent on their own"

  /// Refused: `tab`'s payment is in flight.
  static func inFlight(_ tab: Tab.ID) -> Outcome {
    Outcome(record: nil, reason: TillError.paymentInFlight(tab: tab).description)
  }

  /// The decide phase of a settle: the tab's settlement, which the stock
  /// must cover once the charges in flight have taken theirs; then the
  /// charge is asked for, under `key` when it names one.
  static func startCharge(of tab: Tab.ID, key: IdempotencyKey?, world: borrowing ReplayWorld, state: inout State)
    -> Outcome
  {
    let settlement: Settlement
    do { settlement = try world.settlement(for: tab) } catch { return Outcome(record: nil, refusal: .kiosk(error)) }
    // The canonical form holds amounts under its limit; the till refuses
    // them in every version, past what any processor charges.
    if settlement.total.magnitude * 100 >= Decimal(CanonicalMoney.limit) {
      return Outcome(record: nil, reason: TillError.amountPastLimit(amount: settlement.total).description)
    }
    var kept: [Ingredient: Int] = [:]
    for paying in state.paying {
      // A tab in flight changes no more, so its settlement is what its charge will take.
      guard let other = try? world.settlement(for: paying) else { continue }
      for (ingredient, count) in other.needs { kept[ingredient, default: 0] += count }
    }
    for ingredient in Ingredient.allCases
    where settlement.needs[ingredient, default: 0] > world.stock.units[ingredient, default: 0]
      - kept[ingredient, default: 0]
    {
      return Outcome(record: nil, refusal: .kiosk(.shortage(ingredient)))
    }
    state.paying.append(tab)
    state.paymentsJournaled = true
    return Outcome(record: nil, payment: KioskPayment(kind: .charge, tab: tab, amount: settlement.total, key: key))
  }

  /// The decide phase of an undo of a settle: its refund is asked for,
  /// under `key` when it names one; the tab stays settled until it comes.
  static func startRefund(of receipt: Receipt, key: IdempotencyKey?, state: inout State) -> Outcome {
    state.refunding = receipt.tab
    state.paymentsJournaled = true
    return Outcome(
      record: nil,
      payment: KioskPayment(kind: .refund, tab: receipt.tab, amount: receipt.total, charge: receipt.reference, key: key)
    )
  }

  /// A `paymentIntent` read back: its payment is in flight again, under the
  /// key it names, when it is what the state would ask for now (the tab's
  /// total, or the refund of the newest settle), as the kiosk wrote it.
  static func reopenIntent(
    _ intent: PaymentIntent, world: borrowing ReplayWorld, history: UndoHistory, state: inout State
  )
    -> Outcome
  {
    guard state.initialized else {
      return Outcome(record: nil, reason: "the first record must initialize the menu and stock")
    }
    if let tab = state.refunding ?? (state.paying.contains(intent.tab) ? intent.tab : nil) { return inFlight(tab) }
    switch intent.kind {
    case .charge:
      guard let settlement = try? world.settlement(for: intent.tab), settlement.total == intent.amount else {
        return Outcome(record: nil, reason: "its charge is not tab #\(intent.tab.raw)'s total")
      }
      state.paying.append(intent.tab)
    case .refund:
      if let tab = state.paying.first { return inFlight(tab) }
      guard case .refund(_, let receipt) = history.plan, receipt.tab == intent.tab, receipt.total == intent.amount,
        receipt.reference == intent.charge
      else { return Outcome(record: nil, reason: "its refund is not of the newest settle's charge") }
      state.refunding = intent.tab
    }
    state.paymentsJournaled = true
    return Outcome(record: .paymentIntent(intent), payment: KioskPayment(intent))
  }

  /// A tab's charge went through: the tab is settled with its receipt.
  static func completeCharge(
    _ receipt: Receipt, on world: inout ReplayWorld, history: inout UndoHistory, state: inout State
  ) -> Outcome {
    guard state.paying.contains(receipt.tab) else {
      return Outcome(record: nil, reason: "tab #\(receipt.tab.raw) has no charge in flight")
    }
    guard (try? world.settlement(for: receipt.tab))?.total == receipt.total else {
      return Outcome(record: nil, reason: "the charge is not tab #\(receipt.tab.raw)'s total")
    }
    let outcome = apply(.settled(receipt), on: &world, history: &history, state: &state)
    if outcome.record != nil { state.paying.removeAll { $0 == receipt.tab } }
    return outcome
  }

  /// The refund went through: the newest settle is reverted.
  static func completeRefund(
    reference: String, key: IdempotencyKey, on world: inout ReplayWorld, history: inout UndoHistory,
    state: inout State
  ) -> Outcome {
    guard let tab = state.refunding, case .refund(_, let receipt) = history.plan, receipt.tab == tab else {
      return Outcome(record: nil, reason: "no refund is in flight")
    }
    let outcome = apply(.undone(refund: reference, key: key), on: &world, history: &history, state: &state)
    if outcome.record != nil { state.refunding = nil }
    return outcome
  }

  /// A payment given up: a charged tab takes commands again; a refunded one stays settled.
  static func release(_ tab: Tab.ID, state: inout State) -> Outcome {
    if state.refunding == tab {
      state.refunding = nil
    } else if state.paying.contains(tab) {
      state.paying.removeAll { $0 == tab }
    } else {
      return Outcome(record: nil, reason: "tab #\(tab.raw) has no payment in flight to give up")
    }
    return Outcome(record: nil, released: tab)
  }

  public static func requests(after action: Action, state: State, result: StepResult<Effect, Outcome>)
    -> [KioskPayment]
  {
    result.outcome.payment.map { [$0] } ?? []
  }

  /// The kiosk's key, `k_<salt>_<sequence>_t<tab>`, unless the payment names one.
  public static func key(for request: KioskPayment, salt: UInt64, sequence: UInt64, index: Int) -> IntentKey {
    IntentKey(
      text: (request.key ?? IdempotencyKey(journalSalt: salt, sequence: sequence, tab: request.tab.raw)).raw)
  }

  /// Charges the tab, whose receipt comes back as the `settled` record, or
  /// refunds its charge, whose reference comes back in the `undone` record.
  public static func perform(_ request: KioskPayment, key: IntentKey, environment: Services) async throws -> Action? {
    let key = IdempotencyKey(key.text)
    let processor = environment.processor
    switch request.kind {
    case .charge:
      let reference = try await environment.line.move(key: key, clock: environment.clock) {
        () throws(PaymentError) in try processor.charge(request.amount, key: key)
      }
      return .charged(receipt(of: request, reference: reference, key: key, clock: environment.clock))
    case .refund:
      let reference = try await environment.line.move(key: key, clock: environment.clock) {
        () throws(PaymentError) in try processor.refund(request.charge ?? "", amount: request.amount, key: key)
      }
      return .refunded(reference: reference, key: key)
    }
  }

  /// Asks the processor's ledger what moved under the key: a charge of the amount that no refund gave back is
  /// this settle's, and a refund of this charge and amount this undo's; any
  /// other movement under the key was made before (a journal cut back) and
  /// the payment is given up, nothing having moved for it; a key it does not
  /// know never reached it.
  public static func reconcile(_ request: KioskPayment, key: IntentKey, environment: Services) async throws
    -> Reconciliation<Action>
  {
    let key = IdempotencyKey(key.text)
    let processor = environment.processor
    let status = try await environment.line.ask(key: key, clock: environment.clock) { processor.status(of: key) }
    switch status {
    case .unknown: return .notPerformed
    case .charged(let reference, let amount)
    where request.kind == .charge && amount == request.amount
      && environment.processor.ledger.refund(ofCharge: reference) == nil:
      return .completed(
        feedBack: .charged(receipt(of: request, reference: reference, key: key, clock: environment.clock)))
    case .refunded(let reference, let charge, let amount)
    where request.kind == .refund && charge == request.charge && amount == request.amount:
      return .completed(feedBack: .refunded(reference: reference, key: key))
    case .charged(let reference, _), .refunded(let reference, _, _):
      return .abandon(reason: "\(keyUsedBefore) for \(reference), not this payment; not reused")
    }
  }

  /// A decline is final: no money moved, and asking again changes nothing.
  public static func finalFailure(_ error: any Error) -> String? {
    guard case .declined(let reason) = error as? PaymentError else { return nil }
    return declined + reason
  }

  /// The processor's reason, when `abandoned` (an abandonment's reason) is a decline.
  static func declineReason(_ abandoned: String) -> String? {
    abandoned.hasPrefix(declined) ? String(abandoned.dropFirst(declined.count)) : nil
  }

  /// How a decline's abandonment begins.
  private static let declined = "declined: "

  /// The tab is released: a charged one takes commands again, its stock no
  /// longer kept; a refunded one stays settled.
  public static func abandoned(_ request: KioskPayment, reason: String) -> Action? { .released(tab: request.tab) }

  /// The kiosk's policy, `PaymentRetryPolicy.standard` (`effectPolicy(_:)`).
  public static var effectPolicy: EffectPolicy { effectPolicy(.standard) }

  /// The kiosk's retry policy `policy` as the store runs it (the standard
  /// one: two seconds an attempt, ten in all, backing off from half a second
  /// to four with the whole first wait as jitter). The processor is asked
  /// about a key before it is first used (a journal cut back gives keys
  /// again); a charge it never got when the till stopped is given up, not
  /// made later; and a payment the processor answered nothing about, not
  /// even when asked after, stays open (exit 75) for the next writer to ask
  /// again: it may still have moved money.
  public static func effectPolicy(_ policy: PaymentRetryPolicy) -> EffectPolicy {
    EffectPolicy(
      attempts: PaymentRetryPolicy.maxAttempts, deadline: policy.attemptTimeout, backoff: policy.firstBackoff,
      maxBackoff: policy.maxBackoff, jitter: 1, totalDeadline: policy.deadline, reconcileFirst: true,
      performAfterRestart: false, leavesUnansweredOpen: true)
  }

  /// The receipt of `request`'s charge `reference`, stamped now.
  static func receipt(of request: KioskPayment, reference: String, key: IdempotencyKey, clock: any KioskClock)
    -> Receipt
  {
    Receipt(
      tab: request.tab, total: request.amount, chargedAt: Receipt.time(clock.now()), reference: reference, key: key)
  }
}
