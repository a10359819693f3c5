import Journal

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The default gateway: a local stand-in for a card processor, with no network,
/// that plays the remote party. Its ledger of charges and refunds lives in its
/// own file (beside the kiosk's journal, `<journal>.processor`), durable and
/// append-only, in the journal's own framing and checksums. A crash of the till
/// does not touch it, so after one the till can ask it what really happened.
///
/// Its rules are `ProcessorLedger`'s, the one processor model scenarios and
/// `kiosk-replay` run too: a repeated key returns the first outcome and moves
/// no money; charges over `limit` are declined. `fault` makes it fail the ways
/// that matter for tests: decline, time out before charging, or charge and then
/// lose the answer.
public struct LocalProcessor: PaymentGateway, ~Copyable {
  /// A way to fail on purpose (`KIOSK_PROCESSOR_FAULT` in the `kiosk` binary).
  public typealias Fault = ProcessorFault

  /// One line of the ledger.
  public typealias Entry = ProcessorLedger.Entry

  private var file: DurableJournal
  /// The rules and every movement: the same model scenarios and `kiosk-replay` run.
  public private(set) var ledger: ProcessorLedger
  /// The failure to act out on the next calls, if any.
  public var fault: Fault?

  /// Opens (or creates) the ledger at `path`. With `anchor` (where the till's
  /// day began in it), only the movements from there on are read when the
  /// anchor holds: what the day's payments need, since every key of the day
  /// is the day's journal's. Numbers before it stay used.
  public init(
    path: String, limit: Decimal = ProcessorRules.chargeLimit, lockWait: Duration = DurableJournal.defaultLockWait,
    fault: Fault? = nil, from anchor: JournalAnchor? = nil
  ) throws(JournalError) {
    // The ledger's entries are still written as `JSONEncoder` writes them: version 2.
    var file = try DurableJournal(
      path: path, lockWait: lockWait, from: anchor, newFileVersion: JournalFormat.encoderVersion)
    let recovery = file.recovery
    let entries = try recovery.decodedEntries(as: Entry.self, skippingLost: true)
    var lost = (0..<recovery.count).filter { recovery.lost($0) != nil }.map { Int(recovery.sequence($0)) }
    // A cut tail may have held an entry whose reference was given out (a bit
    // flip in an acknowledged entry looks like a torn write): its number is
    // retired, never given to the next movement.
    if recovery.savedTailPath != nil {
      lost += try file.appendLost(1).map { Int($0) }
    }
    ledger = ProcessorLedger(
      prefix: Self.referencePrefix(ofLedgerSalt: file.salt), limit: limit, entries: entries, lostNumbers: lost,
      numbersBefore: Int(recovery.firstSequence) - 1)
    self.file = file
    self.fault = fault
  }

  /// Every entry read, oldest first (from the anchor it was opened at, if any).
  public var entries: [Entry] { ledger.entries }

  /// Where the next movement will be: a later open `from` it reads only what moves after now.
  public var endAnchor: JournalAnchor { file.endAnchor }

  /// The numbers of entries lost to damage, retired (`ProcessorLedger.lostNumbers`).
  public var lostNumbers: [Int] { ledger.lostNumbers }

  /// Retires every number up to `number` that the ledger has not given yet:
  /// the journal names movements up to `number` (its ledger was restored from
  /// an older copy, or lost its tail), so those numbers are never given again.
  /// Returns the numbers retired, nil when the ledger was not behind.
  public mutating func retire(through number: Int) throws(JournalError) -> ClosedRange<Int>? {
    let used = ledger.numbersUsed
    guard number > used else { return nil }
    let sequences = try file.appendLost(number - used)
    ledger.retire(sequences.map { Int($0) })
    return (used + 1)...number
  }

  /// The largest single charge it approves.
  public var limit: Decimal { ledger.limit }

  /// The ledger file.
  public var path: String { file.path }

  /// What opening the ledger found: whether it was created, and a torn tail cut (and where it was saved).
  public var recovery: JournalRecovery { file.recovery }

  /// The `<prefix>` of the references (`ch_<prefix>_<n>`) of the ledger file whose header has `salt`.
  static func referencePrefix(ofLedgerSalt salt: UInt64) -> String { String(salt % 0xFFFF_FFFF, radix: 16) }

  /// Where the kiosk keeps the ledger unless told otherwise: `<journal>.processor`.
  public static func defaultPath(besideJournal journal: String) -> String { journal + ".processor" }

  /// Makes a decided movement durable before it is answered: a ledger that
  /// cannot be written answers nothing.
  private mutating func settle(_ decision: ProcessorLedger.Decision) throws(PaymentError) -> String {
    switch decision {
    case .known(let reference): return reference
    case .move(let entry):
      do { try file.append(entry) } catch { throw .timedOut }
      ledger.record(entry)
      try fault?.strikeAfterMoving()
      return entry.reference
    }
  }

  /// Charges `amount` once per key: a repeated key returns the first reference.
  public mutating func charge(_ amount: Decimal, key: IdempotencyKey) throws(PaymentError) -> String {
    try settle(ledger.decideCharge(amount, key: key, fault: fault))
  }

  /// Refunds a charge once: a repeated key returns the first refund; a charge
  /// already refunded under another key, or an unknown one, is declined.
  public mutating func refund(_ reference: String, amount: Decimal, key: IdempotencyKey) throws(PaymentError)
    -> String
  {
    try settle(ledger.decideRefund(reference, amount: amount, key: key, fault: fault))
  }

  /// What moved under `key`. Answers even when `fault` is set: the question
  /// reconciliation asks must reach the ledger.
  public func status(of key: IdempotencyKey) throws(PaymentError) -> PaymentStatus { ledger.status(of: key) }

  /// Whether `charge(amount)` would be approved now.
  public func authorize(_ amount: Decimal) async throws(PaymentError) -> Bool {
    ledger.authorizes(amount, fault: fault)
  }
}
