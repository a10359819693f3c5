import DurableStore
import FeatureKit
import Journal
import KioskCommands
import Payment

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The till's steps as the kiosk journals them (docs/journal.md): each step
/// is the `KioskRecord` it made, a period's end is `dayClosed`, and a
/// checkpoint is a `KioskCheckpoint`, each in the form of its journal's
/// version (1 and 2: `JSONEncoder`'s bytes; 3: canonical), byte for byte what
/// the kiosk writes. Reading a record back gives the step that applies it.
///
/// A payment's intent is its `paymentIntent`, under the key the store gave
/// it; its outcome is `settled` (the receipt names the key), `undone` with
/// the refund's reference and key, or `paymentAbandoned`, which keeps the
/// key and the reason only: replay feeds back what the till's `abandoned`
/// says again.
public enum KioskTillFormat: DurableFormat {
  public typealias Model = KioskTill

  /// The day's settled-tabs file goes with its archive (`SettledTabsFile`).
  public static var companionSuffixes: [String] { [SettledTabsFile.suffix] }

  /// A day's journal ends with its last command and `dayClosed`, as the
  /// kiosk's does: no checkpoint between (a reader replays from the last one).
  public static var checkpointsPeriodEnd: Bool { false }

  /// Every version of the kiosk's journals.
  public static var versions: ClosedRange<UInt16> { JournalFormat.readableVersions }

  /// A new day's journal is canonical, as the kiosk begins one.
  public static var newJournalVersion: UInt16 { JournalFormat.canonicalVersion }

  public static func writeRecord(
    _ kind: DurableStepKind, _ action: KioskTill.Action?, _ intents: [Intent<KioskPayment>],
    result: StepResult<KioskTill.Effect, KioskTill.Outcome>?, version: UInt16, to out: inout [UInt8]
  ) {
    let record: KioskRecord
    switch kind {
    case .periodClosed(let period, let archive):
      record = .dayClosed(day: period + 1, archive: archive)
    case .sent:
      if let intent = intents.first {
        // One intent a step at most: a settle's charge, under the key the store gave it.
        record = .paymentIntent(intent.request.intent(key: IdempotencyKey(intent.key.text)))
      } else if let made = result?.outcome.record {
        record = made
      } else {
        // A step that journals nothing is a refusal, which the store does not write.
        preconditionFailure("a journaled till step makes a record")
      }
    case .outcome(let key, let abandoned?):
      record = .paymentAbandoned(key: IdempotencyKey(key.text), reason: abandoned)
    case .outcome:
      switch action {
      case .charged(let receipt)?: record = .settled(receipt)
      case .refunded(let reference, let key)?: record = .undone(refund: reference, key: key)
      default: preconditionFailure("a payment made feeds back its receipt or its refund")
      }
    case .fedBack, .undone:
      preconditionFailure("the till starts no work and keeps its own undo history: no \(kind) step")
    }
    do {
      try JournalJSONWriter.append(record, version: version, to: &out)
    } catch {
      // The step refused any amount without a canonical form, and the encoder writes every record.
      preconditionFailure("\(record) has no journal form in version \(version): \(error)")
    }
  }

  public static func readRecord(_ payload: ArraySlice<UInt8>, version: UInt16) throws -> DurableRecord<KioskTill> {
    let record = try KioskRecord.decoded(from: payload, version: version)
    switch record {
    case .dayClosed(let day, let archive):
      return DurableRecord(kind: .periodClosed(period: day - 1, archive: archive), action: nil, intents: [])
    case .paymentIntent(let intent):
      return DurableRecord(
        kind: .sent, action: .intent(intent),
        intents: [Intent(key: IntentKey(text: intent.key.raw), request: KioskPayment(intent))])
    case .paymentAbandoned(let key, let reason):
      return DurableRecord(kind: .outcome(key: IntentKey(text: key.raw), abandoned: reason), action: nil, intents: [])
    case .settled(let receipt):
      // A day of format 1 settles with no intent, and its receipt names no key.
      guard let key = receipt.key else { return DurableRecord(kind: .sent, action: .record(record), intents: []) }
      return DurableRecord(
        kind: .outcome(key: IntentKey(text: key.raw), abandoned: nil), action: .charged(receipt), intents: [])
    case .undone(let reference?, let key?):
      return DurableRecord(
        kind: .outcome(key: IntentKey(text: key.raw), abandoned: nil),
        action: .refunded(reference: reference, key: key), intents: [])
    default:
      return DurableRecord(kind: .sent, action: .record(record), intents: [])
    }
  }

  /// The next day is of version 3 unless what it carries over has an amount
  /// the canonical form cannot hold (a price in fractions of a cent, from a
  /// day begun in version 2).
  public static func nextPeriodVersion(opening checkpoint: DurableCheckpoint<KioskTill>) -> UInt16 {
    kioskCheckpoint(checkpoint).canonicalHolds ? JournalFormat.canonicalVersion : JournalFormat.encoderVersion
  }

  public static func writeCheckpoint(_ checkpoint: DurableCheckpoint<KioskTill>, version: UInt16) -> [UInt8] {
    do { return try JournalJSONWriter.bytes(of: kioskCheckpoint(checkpoint), version: version) } catch {
      preconditionFailure("a checkpoint has no journal form in version \(version): \(error)")
    }
  }

  /// The checkpoint as the kiosk writes it. The day before is named in the
  /// day's opening checkpoint only, with the digest of what it carried over
  /// (the opening state itself), as `closeDay` names it. What the files
  /// beside the journal say (the settled-tabs file's mark, where the day's
  /// movements begin in the processor's ledger, the numbers it gave) is
  /// what the till kept as the checkpoint was taken (`KioskTill.checkpointing`).
  static func kioskCheckpoint(_ checkpoint: DurableCheckpoint<KioskTill>) -> KioskCheckpoint {
    let state = checkpoint.state
    let previous = checkpoint.previous.flatMap { link in
      checkpoint.opensPeriod
        ? ClosedDay(
          day: link.period + 1, archive: link.archive, lastSequence: link.lastSequence,
          carriedDigest: state.slices.digest) : nil
    }
    return KioskCheckpoint(
      day: checkpoint.period + 1, state: state.slices, undo: state.undo,
      openIntents: checkpoint.open.map { $0.request.intent(key: IdempotencyKey($0.key.text)) },
      paymentsJournaled: state.paymentsJournaled, previousDay: previous,
      ledgerNumbersUsed: state.kept.ledgerNumbersUsed, settledTabs: state.kept.settledTabs,
      ledgerStart: state.kept.ledgerStart, till: state.till)
  }

  public static func readCheckpoint(_ payload: ArraySlice<UInt8>, version: UInt16) throws
    -> DurableCheckpoint<KioskTill>
  {
    let checkpoint = try KioskCheckpoint.decoded(from: payload, version: version, decoder: JSONDecoder())
    let state = KioskTill.State(
      slices: checkpoint.state, undo: checkpoint.undo, till: checkpoint.till, initialized: true,
      paying: checkpoint.openIntents.filter { $0.kind == .charge }.map(\.tab),
      refunding: checkpoint.openIntents.first { $0.kind == .refund }?.tab,
      paymentsJournaled: checkpoint.paymentsJournaled,
      kept: KioskTill.Kept(
        settledTabs: checkpoint.settledTabs, ledgerStart: checkpoint.ledgerStart,
        ledgerNumbersUsed: checkpoint.ledgerNumbersUsed))
    let previous = checkpoint.previousDay.map {
      DurablePeriodLink(period: $0.day - 1, archive: $0.archive, lastSequence: $0.lastSequence)
    }
    let open = checkpoint.openIntents.map { Intent(key: IntentKey(text: $0.key.raw), request: KioskPayment($0)) }
    return DurableCheckpoint(
      state: state, open: open, undo: [], period: checkpoint.day - 1, previous: previous,
      opensPeriod: previous != nil)
  }
}
