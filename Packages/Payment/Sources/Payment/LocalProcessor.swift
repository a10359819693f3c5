import Foundation
import Journal

/// The default gateway: a local stand-in for a card processor, with no network,
/// that plays the remote party. Its ledger of charges and refunds lives in its
/// own file (beside the kiosk's journal, `<journal>.processor`), durable and
/// append-only, in the journal's own framing and checksums. A crash of the till
/// does not touch it, so after one the till can ask it what really happened.
///
/// Idempotent: a repeated key returns the first outcome and moves no money.
/// Declines charges over `limit`. `fault` makes it fail the ways that matter
/// for tests: decline, time out before charging, or charge and then lose the answer.
public struct LocalProcessor: PaymentGateway, ~Copyable {
  /// A way to fail on purpose (`KIOSK_PROCESSOR_FAULT` in the `kiosk` binary).
  public enum Fault: String, Sendable, CaseIterable {
    /// Refuse every charge and refund.
    case decline
    /// Answer nothing and move no money.
    case timeout
    /// Move the money, record it, then answer nothing (a lost response).
    case failAfterCharging = "fail-after-charging"
  }

  /// One line of the ledger.
  public struct Entry: Codable, Equatable, Sendable {
    /// `charge` or `refund`.
    public var kind: Kind
    /// The key the money moved under.
    public var key: IdempotencyKey
    /// The processor's reference for this movement.
    public var reference: String
    /// How much moved.
    public var amount: Decimal
    /// For a refund: the charge it gives back.
    public var charge: String?

    /// What moved.
    public enum Kind: String, Codable, Sendable {
      /// Money taken from the customer.
      case charge
      /// Money given back.
      case refund
    }
  }

  private var ledger: DurableJournal
  /// Every entry, oldest first.
  public private(set) var entries: [Entry]
  private var byKey: [IdempotencyKey: Int] = [:]
  private var refundOf: [String: IdempotencyKey] = [:]
  private var chargeByReference: [String: Int] = [:]
  /// The largest single charge it approves.
  public let limit: Decimal
  /// The failure to act out on the next calls, if any.
  public var fault: Fault?

  /// Opens (or creates) the ledger at `path`.
  public init(
    path: String, limit: Decimal = ProcessorRules.chargeLimit, lockWait: Duration = DurableJournal.defaultLockWait,
    fault: Fault? = nil
  ) throws(JournalError) {
    let ledger = try DurableJournal(path: path, lockWait: lockWait)
    entries = try ledger.recoveredEntries(as: Entry.self)
    self.ledger = ledger
    self.limit = limit
    self.fault = fault
    for (position, entry) in entries.enumerated() { remember(entry, at: position) }
  }

  /// The ledger file.
  public var path: String { ledger.path }

  /// What opening the ledger found: whether it was created, and a torn tail cut (and where it was saved).
  public var recovery: JournalRecovery { ledger.recovery }

  /// Where the kiosk keeps the ledger unless told otherwise: `<journal>.processor`.
  public static func defaultPath(besideJournal journal: String) -> String { journal + ".processor" }

  private mutating func remember(_ entry: Entry, at position: Int) {
    byKey[entry.key] = position
    switch entry.kind {
    case .charge: chargeByReference[entry.reference] = position
    case .refund: if let charge = entry.charge { refundOf[charge] = entry.key }
    }
  }

  private var referencePrefix: String { String(ledger.salt % 0xFFFF_FFFF, radix: 16) }

  private mutating func record(_ entry: Entry) throws(PaymentError) {
    do { try ledger.append(entry) } catch { throw .timedOut }
    entries.append(entry)
    remember(entry, at: entries.count - 1)
  }

  /// The faults that strike before any money moves.
  private func actOutFaultBeforeMovingMoney() throws(PaymentError) {
    switch fault {
    case .decline?: throw .declined(reason: "the processor declines every payment (fault injection)")
    case .timeout?: throw .timedOut
    case .failAfterCharging?, nil: break
    }
  }

  /// Charges `amount` once per key: a repeated key returns the first reference.
  public mutating func charge(_ amount: Decimal, key: IdempotencyKey) throws(PaymentError) -> String {
    if let known = byKey[key] {
      guard entries[known].kind == .charge else { throw .declined(reason: "key '\(key)' was used for a refund") }
      guard entries[known].amount == amount else {
        throw .declined(reason: "key '\(key)' was used for a charge of \(entries[known].amount), not \(amount)")
      }
      return entries[known].reference
    }
    try actOutFaultBeforeMovingMoney()
    guard amount > 0 else { throw .declined(reason: "nothing to charge") }
    guard amount <= limit else { throw .declined(reason: "over the \(limit) limit") }
    let reference = "ch_\(referencePrefix)_\(ledger.lastSequence + 1)"
    try record(Entry(kind: .charge, key: key, reference: reference, amount: amount, charge: nil))
    if fault == .failAfterCharging { throw .timedOut }
    return reference
  }

  /// Refunds a charge once: a repeated key returns the first refund; a charge
  /// already refunded under another key, or an unknown one, is declined.
  public mutating func refund(_ reference: String, amount: Decimal, key: IdempotencyKey) throws(PaymentError)
    -> String
  {
    if let known = byKey[key] {
      guard entries[known].kind == .refund, entries[known].charge == reference, entries[known].amount == amount else {
        throw .declined(reason: "key '\(key)' was used for another payment")
      }
      return entries[known].reference
    }
    try actOutFaultBeforeMovingMoney()
    guard let position = chargeByReference[reference] else { throw .declined(reason: "'\(reference)' is not a charge") }
    let charged = entries[position]
    guard refundOf[reference] == nil else { throw .declined(reason: "'\(reference)' was refunded already") }
    guard amount > 0, amount <= charged.amount else {
      throw .declined(reason: "a refund of \(amount) does not fit the charge of \(charged.amount)")
    }
    let refund = "re_\(referencePrefix)_\(ledger.lastSequence + 1)"
    try record(Entry(kind: .refund, key: key, reference: refund, amount: amount, charge: reference))
    if fault == .failAfterCharging { throw .timedOut }
    return refund
  }

  /// What moved under `key`. Answers even when `fault` is set: the question
  /// reconciliation asks must reach the ledger.
  public func status(of key: IdempotencyKey) throws(PaymentError) -> PaymentStatus {
    guard let known = byKey[key] else { return .unknown }
    let entry = entries[known]
    switch entry.kind {
    case .charge: return .charged(reference: entry.reference, amount: entry.amount)
    case .refund: return .refunded(reference: entry.reference, charge: entry.charge ?? "", amount: entry.amount)
    }
  }

  /// Whether `charge(amount)` would be approved now.
  public func authorize(_ amount: Decimal) async throws(PaymentError) -> Bool {
    fault == nil && amount > 0 && amount <= limit
  }
}
