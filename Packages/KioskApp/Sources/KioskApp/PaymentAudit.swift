import KioskCommands
import Payment
import Tabs

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The processor's ledger and the journal side by side (`kiosk reconcile`, and
/// part of `kiosk verify`): every charge maps to exactly one settled tab, every
/// refund to exactly one undone settle, with the same key and amount, and the
/// totals agree. Anything else is a mismatch, one line each.
public struct PaymentAudit: Equatable, Sendable {
  /// Charges in the ledger, and their total.
  public var charges: Int = 0
  /// The ledger's charge total.
  public var chargedTotal: Decimal = 0
  /// Refunds in the ledger.
  public var refunds: Int = 0
  /// The ledger's refund total.
  public var refundedTotal: Decimal = 0
  /// The journal's total of keyed settles.
  public var settledTotal: Decimal = 0
  /// The journal's total of refunded settles.
  public var undoneTotal: Decimal = 0
  /// Settles journaled before keys existed, which no ledger can confirm.
  public var unkeyedSettles: Int = 0
  /// Every disagreement, in a stable order.
  public var mismatches: [String] = []
  /// Intents without an outcome yet, each with what the processor did under its
  /// key (nothing, or one movement): not a disagreement, since the next writer
  /// reconciles them, and their movements are left out of the totals.
  public var pending: [String] = []
  /// Money the processor moved under open intents: left out of the totals above until reconciled.
  public var pendingMovements = 0
  /// Their total, charges and refunds alike.
  public var pendingTotal: Decimal = 0

  /// Whether the ledger and the journal agree.
  public var agrees: Bool { mismatches.isEmpty }
  /// The processor's movements under keys of set-aside archives: not compared.
  public var setAsideMovements = 0

  /// Compares the ledger and the journal as they stood at one `ReadPoint`:
  /// `ledger` read up to `ledgerAfter`, `records` up to `journalEnd`, and
  /// `settledBefore` the entries within `ledgerBefore`. An entry after those
  /// whose intent `records` does not reach moved after the point: left out.
  public init(
    ledger: [LocalProcessor.Entry], settledBefore: Int, records: [KioskRecord], lostNumbers: [Int] = [],
    setAsideSalts: [UInt64] = [], closedByCheckpoint: [PaymentIntent] = []
  ) {
    var intents: Set<IdempotencyKey> = []
    for case .paymentIntent(let intent) in records { intents.insert(intent.key) }
    let seen = ledger.prefix(settledBefore) + ledger.dropFirst(settledBefore).prefix { intents.contains($0.key) }
    self.init(
      ledger: Array(seen), records: records, lostNumbers: lostNumbers, setAsideSalts: setAsideSalts,
      closedByCheckpoint: closedByCheckpoint)
  }

  /// Compares `ledger` with `records`. `lostNumbers` are the ledger's entries
  /// lost to damage (`ProcessorLedger.lostNumbers`): a journaled movement
  /// naming one of them is reported with the way out.
  ///
  /// `setAsideSalts` are the headers' salts of archives set aside as damaged
  /// (`kiosk set-aside`): the movements under their keys have no journal to
  /// be compared with, so they are left out and counted in `setAsideMovements`.
  ///
  /// `closedByCheckpoint` are intents whose outcome record was lost to damage
  /// but which a later checkpoint shows resolved
  /// (`KioskJournalReader.PaymentHistory`): not pending, and the processor's
  /// movement under each one's key, if any, is its settle or undo.
  public init(
    ledger allEntries: [LocalProcessor.Entry], records: [KioskRecord], lostNumbers: [Int] = [],
    setAsideSalts: [UInt64] = [], closedByCheckpoint: [PaymentIntent] = []
  ) {
    let prefixes = setAsideSalts.map { IdempotencyKey.prefix(journalSalt: $0) }
    let ledger = allEntries.filter { entry in !prefixes.contains { entry.key.raw.hasPrefix($0) } }
    var refundAmounts: [String: Decimal] = [:]
    for entry in ledger where entry.kind == .refund { refundAmounts[entry.reference] = entry.amount }
    setAsideMovements = allEntries.count - ledger.count
    var open = Dictionary(KioskRecord.openIntents(in: records).map { ($0.key, $0) }) { first, _ in first }
    var movedUnderOpenIntent: [IdempotencyKey: LocalProcessor.Entry] = [:]
    var intents: [IdempotencyKey: PaymentIntent] = [:]
    // The intent each outcome closed, by the movement's reference: the last one
    // journaled under its key before it. A later intent under the same key (one
    // journaled and abandoned after the journal was cut back) is not that one.
    var closedIntents: [String: PaymentIntent] = [:]
    var settles: [String: [Receipt]] = [:]
    var undos: [String: [IdempotencyKey]] = [:]
    for record in records {
      switch record {
      case .paymentIntent(let intent): intents[intent.key] = intent
      case .settled(let receipt):
        guard let key = receipt.key else {
          unkeyedSettles += 1
          continue
        }
        closedIntents[receipt.reference] = intents[key]
        settles[receipt.reference, default: []].append(receipt)
        settledTotal += receipt.total
      case .undone(let refund?, let key?):
        closedIntents[refund] = intents[key]
        undos[refund, default: []].append(key)
        // Its intent may be a record lost to damage: the refund the undo names says how much.
        undoneTotal += intents[key]?.amount ?? refundAmounts[refund] ?? 0
      default: break
      }
    }
    // An outcome lost to damage: the checkpoint after it closed the intent, and
    // the processor's movement under its key is the settle or undo it recorded.
    if !closedByCheckpoint.isEmpty {
      var movedUnder: [IdempotencyKey: [LocalProcessor.Entry]] = [:]
      for entry in ledger { movedUnder[entry.key, default: []].append(entry) }
      for intent in closedByCheckpoint {
        open.removeValue(forKey: intent.key)
        intents[intent.key] = intent
        // Its outcome is a movement of its kind under its key that no journaled
        // outcome claims: a journal cut back reuses keys, so the key may also
        // name an earlier movement, already settled or undone.
        let outcome = movedUnder[intent.key]?.first { (entry: LocalProcessor.Entry) -> Bool in
          guard entry.kind.rawValue == intent.kind.rawValue else { return false }
          let claimed = entry.kind == .charge ? settles[entry.reference] != nil : undos[entry.reference] != nil
          return !claimed
        }
        guard let moved = outcome else { continue }
        closedIntents[moved.reference] = intent
        switch intent.kind {
        case .charge:
          settles[moved.reference, default: []].append(
            Receipt(
              tab: intent.tab, total: intent.amount, chargedAt: Date(timeIntervalSince1970: 0),
              reference: moved.reference, key: intent.key))
          settledTotal += intent.amount
        case .refund:
          undos[moved.reference, default: []].append(intent.key)
          undoneTotal += intent.amount
        }
      }
    }
    var seenCharges: Set<String> = []
    var seenRefunds: Set<String> = []
    for entry in ledger {
      if open[entry.key] != nil {
        if movedUnderOpenIntent[entry.key] != nil {
          mismatches.append("the processor moved money twice under the open intent \(entry.key)")
        }
        movedUnderOpenIntent[entry.key] = entry
        self.pendingMovements += 1
        pendingTotal += entry.amount
        continue
      }
      switch entry.kind {
      case .charge:
        charges += 1
        chargedTotal += entry.amount
        seenCharges.insert(entry.reference)
        let matching = settles[entry.reference] ?? []
        if matching.count != 1 {
          mismatches.append(
            "charge \(entry.reference) of \(money(entry.amount)) (key \(entry.key)) settles \(matching.count) tabs in the journal, not 1"
          )
        } else if let receipt = matching.first, receipt.key != entry.key || receipt.total != entry.amount {
          mismatches.append(
            "charge \(entry.reference): the processor has \(money(entry.amount)) under \(entry.key), "
              + "the journal \(money(receipt.total)) under \(receipt.key?.raw ?? "no key")")
        } else if let intent = closedIntents[entry.reference],
          intent.kind != .charge || intent.amount != entry.amount || intent.tab != matching.first?.tab
        {
          // The intent is what the till meant to charge: one that says otherwise
          // than the charge and its receipt means the journal was written wrong.
          mismatches.append(
            "charge \(entry.reference): its intent is a \(intent.kind.rawValue) of \(exactMoney(intent.amount)) "
              + "for tab #\(intent.tab.raw), the processor charged \(exactMoney(entry.amount))")
        }
      case .refund:
        refunds += 1
        refundedTotal += entry.amount
        seenRefunds.insert(entry.reference)
        let matching = undos[entry.reference] ?? []
        if matching != [entry.key] {
          mismatches.append(
            "refund \(entry.reference) of \(money(entry.amount)) (key \(entry.key)) undoes \(matching.count) settles in the journal, not 1"
          )
        } else if let intent = closedIntents[entry.reference],
          intent.amount != entry.amount || intent.charge != entry.charge
        {
          mismatches.append("refund \(entry.reference): the processor and the journal disagree on its charge or amount")
        }
      }
    }
    // The ledger's last number: a journaled reference past it names an entry
    // the ledger does not reach (restored from an older copy, or its tail lost).
    let ledgerEnd = (allEntries.compactMap { Self.number(of: $0.reference) } + lostNumbers).max() ?? 0
    func missing(_ reference: String, otherwise: String) -> String {
      if Self.number(of: reference).map(lostNumbers.contains) == true { return Self.lostEntry }
      if let number = Self.number(of: reference), number > ledgerEnd { return Self.beyondEnd }
      return otherwise
    }
    for (reference, receipts) in settles.sorted(by: { $0.key < $1.key }) where !seenCharges.contains(reference) {
      for receipt in receipts {
        mismatches.append(
          "tab #\(receipt.tab.raw) is settled with \(reference), "
            + missing(reference, otherwise: "which the processor never charged"))
      }
    }
    for reference in undos.keys.sorted() where !seenRefunds.contains(reference) {
      mismatches.append(
        "an undo journals refund \(reference), " + missing(reference, otherwise: "which the processor never made"))
    }
    for intent in open.values.sorted(by: { $0.key.raw < $1.key.raw }) {
      let moved = movedUnderOpenIntent[intent.key].map {
        "the processor \($0.kind == .charge ? "charged" : "refunded") it as \($0.reference)"
      }
      pending.append(
        "the \(intent.kind.rawValue) intent \(intent.key) for tab #\(intent.tab.raw) is open; "
          + (moved ?? "the processor has no record of it") + "; the next command reconciles it")
    }
    if chargedTotal != settledTotal {
      mismatches.append(
        "the processor charged \(money(chargedTotal)) in all, the journal settled \(money(settledTotal))")
    }
    if refundedTotal != undoneTotal {
      mismatches.append(
        "the processor refunded \(money(refundedTotal)) in all, the journal undid \(money(undoneTotal))")
    }
  }

  /// What a journaled movement whose ledger entry was lost to damage is told.
  static let lostEntry =
    "an entry the processor ledger lost to damage; the journal holds the processor's answer: "
    + "'kiosk repair' writes it back"

  /// What a journaled movement past the ledger's last entry is told.
  static let beyondEnd =
    "an entry past the end of the processor ledger (restored from an older copy, or its tail lost); "
    + "the journal holds the processor's answer: 'kiosk repair' writes it back"

  /// The number a reference (`ch_…_<n>`, `re_…_<n>`) carries.
  private static func number(of reference: String) -> Int? { reference.split(separator: "_").last.flatMap { Int($0) } }
}

extension PaymentAudit {
  /// The audit of the day in the live journal at `journal` (its payment
  /// records through every day's file) against the processor's ledger file at
  /// `ledger`, read as they stand.
  public static func of(journal: String, ledger path: String) throws -> PaymentAudit {
    let history = try KioskJournalReader.paymentHistory(of: journal)
    let ledger = try KioskView.readLedgerFile(path)
    return PaymentAudit(
      ledger: ledger.entries, records: history.records, lostNumbers: ledger.lost,
      setAsideSalts: KioskSegments.setAsideSalts(of: journal, ledger: ledger.entries),
      closedByCheckpoint: history.closedByCheckpoint)
  }
}
