import Clock
import KioskCommands
import Menu
import Payment
import Tabs

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What the shell's off-actor effects run on: the clock their waits and
/// deadlines use, where retries take their jitter, the retry policy, and the
/// network to the processor. Injected, so a test runs them on virtual time.
public struct EffectEnvironment: Sendable {
  /// The clock effects wait on.
  public var clock: any KioskClock
  /// The jitter of retries' backoff.
  public var jitter: Jitter
  /// Each processor call's deadline and retries.
  public var policy: PaymentRetryPolicy
  /// How requests reach the processor.
  public var network: ProcessorNetwork

  /// An environment.
  public init(clock: any KioskClock, jitter: Jitter, policy: PaymentRetryPolicy, network: ProcessorNetwork) {
    self.clock = clock
    self.jitter = jitter
    self.policy = policy
    self.network = network
  }

  /// Production: the system clock, random jitter, the standard policy, a direct network.
  public static let live = EffectEnvironment(
    clock: SystemClock(), jitter: .random, policy: .standard, network: .direct)
}

/// One effect in flight, a charge or a refund, named by its intent's key.
public struct EffectID: Hashable, Sendable, CustomStringConvertible {
  /// The movement's idempotency key.
  public let key: IdempotencyKey
  /// What the effect's task is named, `settle tab #1 under <key>`: a test
  /// clock names its sleepers by it.
  public let name: String

  /// The effect of the intent under `key`, its task named `name`.
  public init(key: IdempotencyKey, name: String) {
    self.key = key
    self.name = name
  }

  public var description: String { name }
}

/// What an effect fed back to the shell, journaled (or not) as it says.
public enum EffectOutcome: Equatable, Sendable {
  /// The charge went through: the settle was journaled with this receipt.
  case settled(Receipt)
  /// The refund went through: the undo of the settle was journaled, with the refund's reference.
  case undone(tab: Tab.ID, refund: String, key: IdempotencyKey)
  /// The processor declined: `paymentAbandoned` was journaled; the tab is as it was.
  case declined(tab: Tab.ID, key: IdempotencyKey, reason: String)
  /// No answer before the deadline: the intent stays open for reconciliation.
  /// `attempts` are when each attempt started, from the first.
  case unresolved(tab: Tab.ID, key: IdempotencyKey, attempts: [Duration])
  /// The payment went through but its outcome could not be journaled; the
  /// intent stays open and the next command that writes reconciles it.
  case notJournaled(tab: Tab.ID, key: IdempotencyKey, reason: String)
  /// The processor declined (no money moved) but the abandonment could not be
  /// journaled; the intent stays open and reconciliation closes it.
  case declineNotJournaled(tab: Tab.ID, key: IdempotencyKey, reason: String)
}

/// A payment on its way: what the shell needs to finish it when it returns.
struct PaymentInFlight {
  /// A charge settles with its settlement; a refund completes the undo of `entry`.
  enum Kind {
    case charge(Settlement)
    case refund(UndoHistory.Entry)
  }

  var tab: Tab.ID
  var kind: Kind
  var name = ""
  var task: Task<Void, Never>?

  /// The stock a charge will consume.
  var reserved: [Ingredient: Int] {
    if case .charge(let settlement) = kind { settlement.needs } else { [:] }
  }
}

extension KioskShell {
  /// The tabs whose charge or refund is in flight: observers show them as authorizing.
  public var authorizingTabs: [Tab.ID] {
    _ = revision
    return inFlight.values.map(\.tab).sorted()
  }

  /// The effects in flight.
  public var effectsInFlight: [EffectID] {
    _ = revision
    return inFlight.map { EffectID(key: $0.key, name: $0.value.name) }.sorted { $0.key.raw < $1.key.raw }
  }

  /// Starts settling `tab` with the processor call off the main actor, and
  /// returns the effect's id at once. Decide (every check), then the intent
  /// is journaled, then the charge starts; its outcome comes back as a
  /// journaled command (`outcome(of:)`). A tab with a charge in flight is refused.
  ///
  /// Returns nil when the processor already held a charge for the tab that
  /// this journal had lost (`adoptHeldCharge`): the settle is then complete,
  /// with that charge, and `adoptions` says so. No money moves again.
  public func startSettle(_ tab: Tab.ID) throws -> EffectID? {
    try refuseIfInFlight(tab)
    try prepareToWrite()
    let settlement = try world.settlement(for: tab)
    try refuseIfReserved(settlement)
    try refuseWhileLedgerLacksKnownEntries()
    if try adoptHeldCharge(settling: settlement) != nil { return nil }
    let key = try journalFreshIntent(kind: .charge, tab: tab, amount: settlement.total)
    try paymentStepHook?(.afterIntent)
    return start(
      PaymentInFlight(tab: tab, kind: .charge(settlement)), .charge(amount: settlement.total, key: key),
      name: "settle tab #\(tab.raw)")
  }

  /// Starts undoing the newest command still on the undo stack. A settle is
  /// refunded off the main actor, as `startSettle` charges: its effect's id is
  /// returned, and the undo is journaled when the refund comes back. Any other
  /// command is undone at once, and nil is returned; so is nil when there is
  /// nothing to undo (`undone` says which). While a refund is in flight, every
  /// write is refused: the undo stack is its to pop.
  public func startUndo() throws -> (effect: EffectID?, undone: Undone?) {
    try refuseWhileAnyInFlight()
    // An undo whose refund's answer was lost (exit 75) is completed on the way
    // in when the processor made it: that is the undo asked for again, so it is
    // the one reported, and nothing more is undone.
    let before = reconciledBeforeCommand
    try prepareToWrite()
    if let completed = reconciled[before...].last(where: { $0.intent.kind == .refund && $0.undone != nil }),
      case .completed(let reference) = completed.resolution, let record = completed.undone
    {
      return (nil, Undone(record: record, refund: reference))
    }
    switch history.plan {
    case .nothing: return (nil, nil)
    case .revert(let entry):
      try completeUndo(refund: nil, key: nil)
      return (nil, Undone(record: entry.record, refund: nil))
    case .refund(let entry, let receipt):
      try refuseWhileLedgerLacksKnownEntries()
      if let undone = try adoptHeldRefund(of: receipt) { return (nil, undone) }
      let key = try journalFreshIntent(
        kind: .refund, tab: receipt.tab, amount: receipt.total, charge: receipt.reference)
      try paymentStepHook?(.afterIntent)
      let effect = history.plan.effect(key: key)!
      return (
        start(PaymentInFlight(tab: receipt.tab, kind: .refund(entry)), effect, name: "refund tab #\(receipt.tab.raw)"),
        nil
      )
    }
  }

  /// Reverts the newest command still on the undo stack, and returns what
  /// was undone, or nil when there is nothing to undo. Undoing a settle moves
  /// money back, intent first like a settle: the refund runs off the main
  /// actor under the effect environment's deadline and retries, and the undo
  /// is journaled with its reference before the tab reopens and the stock
  /// comes back. The one undo the till has: `kiosk undo` runs it.
  public func undo() async throws -> Undone? {
    let (effect, undone) = try startUndo()
    guard let effect else { return undone }
    let entry = history.last
    switch await outcome(of: effect) {
    case .undone(_, let refund, _):
      try paymentStepHook?(.afterOutcome)
      return entry.map { Undone(record: $0.record, refund: refund) }
    case .declined(_, _, let reason): throw KioskError.payment(.declined(reason: reason))
    case .unresolved(_, _, let attempts): throw KioskShellError.unresolved(key: effect.key, attempts: attempts.count)
    case .notJournaled(_, let key, let reason): throw KioskShellError.outcomeNotJournaled(key: key, reason: reason)
    case .declineNotJournaled(_, let key, let reason):
      throw KioskShellError.declineNotJournaled(key: key, reason: reason)
    case .settled, nil: throw KioskShellError.tornDown
    }
  }

  /// Starts `payment`'s processor call, `effect`, as a task of its own named
  /// `<name> under <key>`, under the retry policy on the effect environment;
  /// its result re-enters through `finish(_:_:)`.
  private func start(_ payment: PaymentInFlight, _ effect: PaymentEffect, name: String) -> EffectID {
    let key = effect.key
    let environment = effects
    var payment = payment
    payment.name = "\(name) under \(key)"
    payment.task = Task.detached(name: payment.name) { [weak self] in
      var attempt = 0
      let result: Result<String, PaymentCallFailure>
      do throws(PaymentCallFailure) {
        result = .success(
          try await PaymentRetry.run(policy: environment.policy, clock: environment.clock, jitter: environment.jitter) {
            (timeout: Duration) async throws(PaymentError) -> String in
            attempt += 1
            return try await environment.network.send(attempt: attempt, timeout: timeout, clock: environment.clock) {
              () async throws(PaymentError) -> String in
              // The processor acts on the main actor, where the world is.
              guard let self else { throw .timedOut }
              return try await self.act(effect)
            }
          })
      } catch {
        result = .failure(error)
      }
      await self?.finish(key, result)
    }
    inFlight[key] = payment
    didChange()
    return EffectID(key: key, name: payment.name)
  }

  /// Lets the processor act, unless the shell was torn down meanwhile: a
  /// request still queued for the main actor then never reaches it.
  private func act(_ effect: PaymentEffect) throws(PaymentError) -> String {
    if isTornDown { throw .timedOut }
    return try effect.run(on: &world.payment)
  }

  /// Waits for the effect `id` to come back and returns what it fed back; nil
  /// for an effect this shell never started or tore down.
  public func outcome(of id: EffectID) async -> EffectOutcome? {
    if let task = inFlight[id.key]?.task { await task.value }
    return finished[id.key]
  }

  /// Settles `tab` and waits for its outcome: the receipt, or why there is
  /// none. The one settle the till has (`kiosk settle` runs it): decide, the
  /// intent, the charge off the main actor under deadlines and retries, then
  /// the outcome journaled as a command (`finish`). `paymentStepHook` runs at
  /// each step, so crash tests cover this path.
  public func settle(_ tab: Tab.ID) async throws -> Receipt {
    guard let id = try startSettle(tab) else {
      guard let receipt = adoptions.last?.receipt else { preconditionFailure("an adopted settle has its receipt") }
      try paymentStepHook?(.afterOutcome)
      return receipt
    }
    switch await outcome(of: id) {
    case .settled(let receipt):
      try paymentStepHook?(.afterOutcome)
      return receipt
    case .declined(_, _, let reason): throw KioskError.payment(.declined(reason: reason))
    case .unresolved(_, _, let attempts): throw KioskShellError.unresolved(key: id.key, attempts: attempts.count)
    case .notJournaled(_, let key, let reason): throw KioskShellError.outcomeNotJournaled(key: key, reason: reason)
    case .declineNotJournaled(_, let key, let reason):
      throw KioskShellError.declineNotJournaled(key: key, reason: reason)
    case .undone, nil: throw KioskShellError.tornDown
    }
  }

  /// Re-enters with a payment's result, as a journaled command.
  func finish(_ key: IdempotencyKey, _ result: Result<String, PaymentCallFailure>) {
    guard let payment = inFlight.removeValue(forKey: key) else { return }
    let tab = payment.tab
    let outcome: EffectOutcome
    switch (result, payment.kind) {
    case (.success(let reference), .charge(let settlement)):
      do {
        let entry = try commit(
          beforeAppend: { try paymentStepHook?(.afterEffect) },
          { world in world.applyCharge(settlement, reference: reference, key: key) })
        guard case .settled(let receipt) = entry.record else { preconditionFailure("a charge records `settled`") }
        outcome = .settled(receipt)
      } catch {
        outcome = .notJournaled(tab: tab, key: key, reason: "\(error)")
      }
    case (.success(let reference), .refund):
      do {
        try completeUndo(refund: reference, key: key, beforeAppend: { try paymentStepHook?(.afterEffect) })
        outcome = .undone(tab: tab, refund: reference, key: key)
      } catch {
        outcome = .notJournaled(tab: tab, key: key, reason: "\(error)")
      }
    case (.failure(.declined(let reason)), _):
      do {
        try journal(.paymentAbandoned(key: key, reason: "declined: \(reason)"))
        outcome = .declined(tab: tab, key: key, reason: reason)
      } catch {
        outcome = .declineNotJournaled(tab: tab, key: key, reason: "\(error)")
      }
    case (.failure(.deadlinePassed(let attempts)), _):
      outcome = .unresolved(tab: tab, key: key, attempts: attempts)
    case (.failure(.cancelled), _):
      outcome = .unresolved(tab: tab, key: key, attempts: [])
    }
    finished[key] = outcome
    fedBack.append(outcome)
    didChange()
  }

  /// Cancels every effect in flight, refuses every write from now on, and
  /// returns once the cancelled effects have stopped. The intents of the
  /// cancelled charges stay open: the next shell on this journal reconciles
  /// them with the processor.
  public func teardown() async {
    let tasks = inFlight.values.compactMap(\.task)
    for task in tasks { task.cancel() }
    inFlight.removeAll()
    isTornDown = true
    didChange()
    for task in tasks { await task.value }
  }

  /// Refuses a command on `tab` while a payment of it is in flight.
  func refuseIfInFlight(_ tab: Tab.ID) throws {
    if isTornDown { throw KioskShellError.tornDown }
    if inFlight.values.contains(where: { $0.tab == tab }) { throw KioskShellError.paymentInFlight(tab: tab) }
  }

  /// Refuses every write while a refund is in flight: its undo pops the history when it returns.
  func refuseWhileRefundInFlight() throws {
    for payment in inFlight.values {
      if case .refund = payment.kind { throw KioskShellError.paymentInFlight(tab: payment.tab) }
    }
  }

  /// Refuses a command that could change what a charge in flight will commit.
  func refuseWhileAnyInFlight() throws {
    if isTornDown { throw KioskShellError.tornDown }
    if let tab = inFlight.values.map(\.tab).min() { throw KioskShellError.paymentInFlight(tab: tab) }
  }

  /// Refuses a settlement the stock could not cover once the charges in flight consume theirs.
  func refuseIfReserved(_ settlement: Settlement) throws {
    var reserved: [Ingredient: Int] = [:]
    for payment in inFlight.values {
      for (ingredient, count) in payment.reserved { reserved[ingredient, default: 0] += count }
    }
    guard !reserved.isEmpty else { return }
    for ingredient in Ingredient.allCases
    where settlement.needs[ingredient, default: 0] > world.stock.units[ingredient, default: 0]
      - reserved[ingredient, default: 0]
    {
      throw KioskError.shortage(ingredient)
    }
  }
}

/// A step of a payment, where `KioskShell.paymentStepHook` runs: the seams
/// of the one path `kiosk settle` and `kiosk undo` take.
public enum PaymentStep: Sendable, Equatable {
  /// The intent is durable; the processor has not been called.
  case afterIntent
  /// The processor moved the money; its outcome is not journaled yet.
  case afterEffect
  /// The outcome is durable; the command is not acknowledged yet.
  case afterOutcome
}
