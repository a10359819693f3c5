import Journal
import Payment
import Synchronization
import Tabs

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The till's processor (`LocalProcessor`, its ledger file beside the
/// journal) behind a lock of its own, so the requests a `DurableStore` runs
/// off the main actor reach it, and the app asks it on the main actor: the
/// store's environment holds it (`KioskTill.Services`).
///
/// Each call holds the lock for one movement or one question, as the remote
/// processor it stands in for answers one request at a time. A movement asked
/// for by a task already cancelled (its attempt's deadline passed) is not
/// made: checked under the lock, so a question asked after the cancel sees
/// the ledger as the movement left it, or without it, never before it.
public final class SharedProcessor: Sendable {
  private let processor: Mutex<LocalProcessor>
  private let asked = Mutex(0)
  /// Where its ledger is.
  public let path: String
  /// The numbers retired when the till opened, because the journal names
  /// them and the ledger had not given them (a ledger restored from an older copy).
  public let retiredOnOpen: ClosedRange<Int>?
  /// What opening the ledger found (a torn tail cut, and where it was saved).
  public let recovery: JournalRecovery

  /// Shares `processor`, which no one else holds from now on, whose numbers
  /// `retiredOnOpen` were retired as it was opened.
  public init(_ processor: consuming sending LocalProcessor, retiredOnOpen: ClosedRange<Int>? = nil) {
    path = processor.path
    recovery = processor.recovery
    self.retiredOnOpen = retiredOnOpen
    self.processor = Mutex(processor)
  }

  /// Opens (or creates) the ledger at `path` and shares it.
  public convenience init(
    path: String, limit: Decimal = ProcessorRules.chargeLimit, fault: ProcessorFault? = nil
  ) throws(JournalError) {
    self.init(try LocalProcessor(path: path, limit: limit, fault: fault))
  }

  /// Charges `amount` once under `key` (a repeated key answers with the
  /// first reference). A cancelled caller times out, and nothing moves.
  public func charge(_ amount: Decimal, key: IdempotencyKey) throws(PaymentError) -> String {
    try move { (processor: inout LocalProcessor) throws(PaymentError) in try processor.charge(amount, key: key) }
  }

  /// Refunds `amount` of the charge `reference` once under `key`. A
  /// cancelled caller times out, and nothing moves.
  public func refund(_ reference: String, amount: Decimal, key: IdempotencyKey) throws(PaymentError) -> String {
    try move { (processor: inout LocalProcessor) throws(PaymentError) in
      try processor.refund(reference, amount: amount, key: key)
    }
  }

  /// Makes one movement under the lock, counted, unless the caller was cancelled.
  private func move(_ body: (inout LocalProcessor) throws(PaymentError) -> String) throws(PaymentError) -> String {
    asked.withLock { $0 += 1 }
    return try processor.withLock { (processor: inout LocalProcessor) throws(PaymentError) -> String in
      if Task.isCancelled { throw .timedOut }
      return try body(&processor)
    }
  }

  /// How many charges and refunds it was asked to make, repeats included.
  public var movementsAsked: Int { asked.withLock { $0 } }

  /// What moved under `key`; answered whatever the fault.
  public func status(of key: IdempotencyKey) -> PaymentStatus {
    processor.withLock { $0.ledger.status(of: key) }
  }

  /// How many numbers the ledger has given: to movements, and retired.
  public var numbersUsed: Int { processor.withLock { $0.ledger.numbersUsed } }

  /// Where the ledger's file ends: where the next movement will be.
  public var endAnchor: JournalAnchor { processor.withLock { $0.endAnchor } }

  /// The ledger as it stands: every movement read, and the numbers lost.
  public var ledger: ProcessorLedger { processor.withLock { $0.ledger } }

  /// The failure acted out on the next calls, if any (tests; `KIOSK_PROCESSOR_FAULT`).
  public var fault: ProcessorFault? {
    get { processor.withLock { $0.fault } }
    set { processor.withLock { $0.fault = newValue } }
  }
}

extension ProcessorLedger {
  /// The charge this ledger holds for `tab` under a key of the journal
  /// salted `salt`, which no refund gave back: a settle of the tab adopts it
  /// rather than charge again (the kiosk's and the store's alike).
  func heldCharge(of tab: Tab.ID, journalSalt salt: UInt64) -> Entry? {
    unrefundedCharge(subject: IdempotencyKey.subject(journalSalt: salt, tab: tab.raw))
  }
}
