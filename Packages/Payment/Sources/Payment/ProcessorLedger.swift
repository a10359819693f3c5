#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The processor's rules, as plain data: every charge and refund it made, and
/// how it answers the next call. One model for every processor here: the
/// local processor the till runs on keeps one (and makes it durable), the
/// in-memory session gateway keeps one, and scenarios and `kiosk-replay` keep
/// one in their state, so a recording pins what the till really does.
///
/// - A key moves money once: a repeated key answers with its first outcome.
/// - A key used for a charge cannot refund, nor one charged for another
///   amount charge again.
/// - A charge is over nothing (zero or less) or over `limit`: declined.
/// - A refund gives back at most its charge, once: a second refund of one
///   charge, or of something that is not a charge, is declined.
/// - A fault strikes after a repeated key is answered and before new money
///   moves (`failAfterCharging`: after).
public struct ProcessorLedger: Equatable, Sendable {
  /// One movement of money.
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

    /// An entry.
    public init(kind: Kind, key: IdempotencyKey, reference: String, amount: Decimal, charge: String? = nil) {
      self.kind = kind
      self.key = key
      self.reference = reference
      self.amount = amount
      self.charge = charge
    }
  }

  /// What a call decided: the first outcome of a known key, or a new movement to record.
  public enum Decision: Equatable, Sendable {
    /// The key moved money already: answer with its reference, move nothing.
    case known(reference: String)
    /// Move money: record `entry`, then answer with its reference.
    case move(Entry)
  }

  /// References are `ch_<prefix>_<n>` and `re_<prefix>_<n>`, `n` the entry's number from 1.
  public var prefix: String
  /// The largest single charge approved.
  public var limit: Decimal
  /// Every movement, oldest first.
  public private(set) var entries: [Entry] = []
  private var byKey: [IdempotencyKey: Int] = [:]
  /// The refund of each refunded charge, by the charge's reference.
  private var refundOfCharge: [String: Int] = [:]
  private var chargeByReference: [String: Int] = [:]
  /// The charges not refunded, oldest first, by their keys' subject (a journal and a tab).
  private var openChargesBySubject: [String: [Int]] = [:]

  /// The numbers of entries lost to damage (a ledger file's cut tail):
  /// retired, so no reference is ever given to two movements.
  public private(set) var lostNumbers: [Int] = []

  /// How many numbers were given before `entries` (a ledger read from where
  /// the till's day begins holds only that day's movements; the numbers
  /// before are used all the same).
  public private(set) var numbersBefore = 0

  /// A ledger holding `entries`, numbered after `numbersBefore`, whose numbers skip `lostNumbers`.
  public init(
    prefix: String, limit: Decimal = ProcessorRules.chargeLimit, entries: [Entry] = [], lostNumbers: [Int] = [],
    numbersBefore: Int = 0
  ) {
    self.prefix = prefix
    self.limit = limit
    self.lostNumbers = lostNumbers
    self.numbersBefore = numbersBefore
    for entry in entries { record(entry) }
  }

  /// Whether `reference` is one this ledger gave out and then lost to damage.
  public func isLost(_ reference: String) -> Bool {
    guard let number = reference.split(separator: "_").last.flatMap({ Int($0) }) else { return false }
    return reference.hasPrefix("ch_\(prefix)_") || reference.hasPrefix("re_\(prefix)_")
      ? lostNumbers.contains(number) : false
  }

  /// Whether two ledgers hold the same movements under the same rules.
  public static func == (lhs: ProcessorLedger, rhs: ProcessorLedger) -> Bool {
    lhs.prefix == rhs.prefix && lhs.limit == rhs.limit && lhs.entries == rhs.entries
  }

  /// Adds a movement `decideCharge` or `decideRefund` asked for.
  public mutating func record(_ entry: Entry) {
    byKey[entry.key] = entries.count
    switch entry.kind {
    case .charge:
      chargeByReference[entry.reference] = entries.count
      if let subject = entry.key.subject { openChargesBySubject[subject, default: []].append(entries.count) }
    case .refund:
      if let charge = entry.charge {
        refundOfCharge[charge] = entries.count
        if let position = chargeByReference[charge], let subject = entries[position].key.subject {
          openChargesBySubject[subject]?.removeAll { $0 == position }
        }
      }
    }
    entries.append(entry)
  }

  /// The newest charge under a key of `subject` (a journal and a tab,
  /// `IdempotencyKey.subject`) that no refund gave back: money the processor
  /// holds for that tab.
  public func unrefundedCharge(subject: String) -> Entry? { openChargesBySubject[subject]?.last.map { entries[$0] } }

  /// The refund of the charge `reference`, if it was refunded.
  public func refund(ofCharge reference: String) -> Entry? { refundOfCharge[reference].map { entries[$0] } }

  private var nextNumber: Int { numbersUsed + 1 }

  /// How many numbers have been given: to movements, and retired.
  public var numbersUsed: Int { numbersBefore + entries.count + lostNumbers.count }

  /// Retires `numbers` (entries lost to damage, or a tail cut from a ledger
  /// restored from an older copy): never given to another movement.
  public mutating func retire(_ numbers: [Int]) { lostNumbers += numbers }

  /// The number of a reference of this ledger (`ch_<prefix>_<n>`, `re_<prefix>_<n>`), nil for another's.
  public func number(of reference: String) -> Int? {
    for kind in ["ch", "re"] where reference.hasPrefix("\(kind)_\(prefix)_") {
      return Int(reference.dropFirst(kind.count + prefix.count + 2))
    }
    return nil
  }

  /// What charging `amount` under `key` does, acting out `fault`; records nothing.
  public func decideCharge(_ amount: Decimal, key: IdempotencyKey, fault: ProcessorFault? = nil)
    throws(PaymentError) -> Decision
  {
    if let known = byKey[key] {
      let entry = entries[known]
      guard entry.kind == .charge else { throw .declined(reason: "key '\(key)' was used for a refund") }
      guard entry.amount == amount else {
        throw .declined(reason: "key '\(key)' was used for a charge of \(entry.amount), not \(amount)")
      }
      return .known(reference: entry.reference)
    }
    try fault?.strikeBeforeMoving()
    guard amount > 0 else { throw .declined(reason: "nothing to charge") }
    guard amount <= limit else { throw .declined(reason: "over the \(limit) limit") }
    return .move(Entry(kind: .charge, key: key, reference: "ch_\(prefix)_\(nextNumber)", amount: amount))
  }

  /// What refunding `amount` of the charge `reference` under `key` does, acting out `fault`; records nothing.
  public func decideRefund(_ reference: String, amount: Decimal, key: IdempotencyKey, fault: ProcessorFault? = nil)
    throws(PaymentError) -> Decision
  {
    if let known = byKey[key] {
      let entry = entries[known]
      guard entry.kind == .refund, entry.charge == reference, entry.amount == amount else {
        throw .declined(reason: "key '\(key)' was used for another payment")
      }
      return .known(reference: entry.reference)
    }
    try fault?.strikeBeforeMoving()
    guard let position = chargeByReference[reference] else { throw .declined(reason: "'\(reference)' is not a charge") }
    guard refundOfCharge[reference] == nil else { throw .declined(reason: "'\(reference)' was refunded already") }
    let charged = entries[position].amount
    guard amount > 0, amount <= charged else {
      throw .declined(reason: "a refund of \(amount) does not fit the charge of \(charged)")
    }
    return .move(
      Entry(kind: .refund, key: key, reference: "re_\(prefix)_\(nextNumber)", amount: amount, charge: reference))
  }

  /// Charges in memory: decides, records, and acts out a fault that strikes after moving.
  public mutating func charge(_ amount: Decimal, key: IdempotencyKey, fault: ProcessorFault? = nil)
    throws(PaymentError) -> String
  {
    try settle(decideCharge(amount, key: key, fault: fault), fault: fault)
  }

  /// Refunds in memory, as `charge` charges.
  public mutating func refund(
    _ reference: String, amount: Decimal, key: IdempotencyKey, fault: ProcessorFault? = nil
  ) throws(PaymentError) -> String {
    try settle(decideRefund(reference, amount: amount, key: key, fault: fault), fault: fault)
  }

  private mutating func settle(_ decision: Decision, fault: ProcessorFault?) throws(PaymentError) -> String {
    switch decision {
    case .known(let reference): return reference
    case .move(let entry):
      record(entry)
      try fault?.strikeAfterMoving()
      return entry.reference
    }
  }

  /// What moved under `key`. Answers whatever the fault: the question
  /// reconciliation asks must reach the ledger.
  public func status(of key: IdempotencyKey) -> PaymentStatus {
    guard let known = byKey[key] else { return .unknown }
    let entry = entries[known]
    switch entry.kind {
    case .charge: return .charged(reference: entry.reference, amount: entry.amount)
    case .refund: return .refunded(reference: entry.reference, charge: entry.charge ?? "", amount: entry.amount)
    }
  }

  /// Whether a charge of `amount` would be approved now.
  public func authorizes(_ amount: Decimal, fault: ProcessorFault? = nil) -> Bool {
    fault == nil && amount > 0 && amount <= limit
  }
}

/// A way for a processor to fail on purpose: what tests, scenarios and
/// `KIOSK_PROCESSOR_FAULT` act out.
public enum ProcessorFault: String, Sendable, CaseIterable, Codable {
  /// Refuse every new charge and refund.
  case decline
  /// Answer nothing and move no money.
  case timeout
  /// Move the money, record it, then answer nothing (a lost response).
  case failAfterCharging = "fail-after-charging"

  /// The faults that strike before any money moves.
  func strikeBeforeMoving() throws(PaymentError) {
    switch self {
    case .decline: throw .declined(reason: "the processor declines every payment (fault injection)")
    case .timeout: throw .timedOut
    case .failAfterCharging: break
    }
  }

  /// The fault that strikes after money moved.
  func strikeAfterMoving() throws(PaymentError) {
    if self == .failAfterCharging { throw .timedOut }
  }
}
