import KioskCommands
import Payment

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The processor ledger's entries lost to damage that the till's journal
/// knows again. The processor makes an entry durable before it answers, and
/// the till journals the answer word for word: a settle's receipt holds the
/// charge's reference, key and amount; an undo holds the refund's reference and
/// key, and its intent the amount and the charge it gives back. So a lost
/// number the journal names is not a guess to make: `kiosk repair` writes the
/// entry back under its number (`WriteAheadLog.restoreLost`).
public enum LostLedgerEntries {
  /// For each number `ledger` lost to damage (`ProcessorLedger.lostNumbers`),
  /// the entry that `records` (every day's money records) name under it.
  /// Numbers the journal never names are left out.
  public static func known(in ledger: ProcessorLedger, records: [KioskRecord]) -> [UInt64: LocalProcessor.Entry] {
    let lost = Set(ledger.lostNumbers)
    func number(of reference: String) -> UInt64? {
      ledger.number(of: reference).flatMap { lost.contains($0) ? UInt64($0) : nil }
    }
    var intents: [IdempotencyKey: PaymentIntent] = [:]
    var known: [UInt64: LocalProcessor.Entry] = [:]
    for record in records {
      switch record {
      case .paymentIntent(let intent): intents[intent.key] = intent
      case .settled(let receipt):
        guard let key = receipt.key, let number = number(of: receipt.reference) else { continue }
        known[number] = LocalProcessor.Entry(
          kind: .charge, key: key, reference: receipt.reference, amount: receipt.total)
      case .undone(let refund?, let key?):
        guard let number = number(of: refund), let intent = intents[key], intent.kind == .refund else {
          continue
        }
        known[number] = LocalProcessor.Entry(
          kind: .refund, key: key, reference: refund, amount: intent.amount, charge: intent.charge)
      default: continue
      }
    }
    return known
  }

  /// The numbers `ledger` lost to damage whose entries the day's journals
  /// (the live one at `journal`, after every archive) name, in order: money
  /// must not move until `kiosk repair` writes them back. Reads no journal
  /// when the ledger lost nothing.
  public static func knownNumbers(in ledger: ProcessorLedger, journal: String) throws -> [Int] {
    guard !ledger.lostNumbers.isEmpty else { return [] }
    return known(in: ledger, records: try KioskJournalReader.paymentRecords(of: journal)).keys.sorted().map { Int($0) }
  }

  /// The highest number of `ledger` that `records` name (settles' charges,
  /// undos' refunds, refund intents' charges); 0 when they name none.
  public static func highestNumber(namedBy records: [KioskRecord], in ledger: ProcessorLedger) -> Int {
    var named = 0
    for record in records {
      let reference: String? =
        switch record {
        case .settled(let receipt): receipt.reference
        case .undone(let refund, _): refund
        case .paymentIntent(let intent): intent.charge
        default: nil
        }
      if let reference, let number = ledger.number(of: reference) { named = max(named, number) }
    }
    return named
  }
}
