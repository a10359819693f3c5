import FeatureKit
import Journal

/// Rebuilds a store's ledger from what opening (or reading) its journal
/// found: from the last checkpoint, each record after it is applied with the
/// live store's code, and checked against what the journal says it did.
enum DurableReplay {
  /// The ledger `recovery` holds, starting from `initial` when it has no checkpoint.
  static func ledger<Model: DurableFeature>(
    of model: Model.Type, from recovery: JournalRecovery, salt: UInt64, initial: Model.State
  ) throws(DurableStoreError) -> DurableLedger<Model> {
    var ledger = DurableLedger<Model>(state: initial)
    var start = 0
    if let checkpoint = recovery.lastCheckpoint {
      do {
        ledger = try DurableLedger<Model>(checkpoint: recovery.payload(checkpoint), version: recovery.version)
      } catch {
        throw .replay(sequence: recovery.sequence(checkpoint), reason: "\(error)")
      }
      start = checkpoint + 1
    }
    for index in start..<recovery.count {
      let sequence = recovery.sequence(index)
      if recovery.isCheckpoint(index) { continue }
      if let lost = recovery.lost(index) {
        // A checkpoint lost to damage loses nothing: the records around it hold
        // the same state. Not a journal's first record: nothing before a
        // period's opening checkpoint restates what it carried over.
        if lost == .checkpoint, index > 0 { continue }
        throw .replay(sequence: sequence, reason: "it was lost to damage and repaired as a placeholder")
      }
      var record: DurableRecord<Model>
      do { record = try Model.Format.readRecord(recovery.payload(index), version: recovery.version) } catch {
        throw .replay(sequence: sequence, reason: "\(error)")
      }
      if let ended = ledger.ended {
        throw .replay(
          sequence: sequence, reason: "it follows the end of period \(ended.period) (record \(ended.lastSequence))")
      }
      // Taken, not copied: in this generic code a copy of the feature's
      // action goes through its value witnesses, for every record replayed.
      var action = record.action.take()
      switch record.kind {
      case .periodClosed(let period, let archive):
        guard period == ledger.period, action == nil, record.intents.isEmpty else {
          throw .replay(
            sequence: sequence,
            reason: "it ends period \(period) with an action or intents, or in period \(ledger.period)")
        }
        ledger.ended = DurablePeriodLink(period: period, archive: archive, lastSequence: sequence)
        continue
      case .undone:
        guard let top = ledger.undo.last, top == action else {
          throw .replay(sequence: sequence, reason: "it undoes a step the undo stack does not hold")
        }
      case .outcome(let key, let abandoned):
        guard let intent = ledger.open.first(where: { $0.key == key }) else {
          throw .replay(sequence: sequence, reason: "it closes intent \(key), which is not open")
        }
        // A format may keep only the key and the reason of a request given
        // up: what it feeds back is the feature's to say again, as live.
        if let abandoned, action == nil { action = Model.abandoned(intent.request, reason: abandoned) }
      case .sent, .fedBack: break
      }
      var applied = ledger.apply(record.kind, action, sequence: sequence, salt: salt, replaying: true)
      if let clash = applied.clash {
        throw .replay(sequence: sequence, reason: "its intent's key \(clash) is already open")
      }
      if let result = applied.result.take(), let reason = Model.replayFailure(result.outcome) {
        throw .replay(sequence: sequence, reason: reason)
      }
      guard applied.intents == record.intents else {
        throw .replay(sequence: sequence, reason: difference(now: applied.intents, journaled: record.intents))
      }
    }
    return ledger
  }

  /// What differs between the intents a step opens now and those its record holds, first difference named.
  static func difference<Request>(now: [Intent<Request>], journaled: [Intent<Request>]) -> String {
    guard now.count == journaled.count else {
      return "the step opens \(now.count) intent(s) now, not the \(journaled.count) journaled"
    }
    let index = now.indices.first { now[$0] != journaled[$0] } ?? 0
    return "the step's intent \(index) is now \(now[index].key) asking \(now[index].request), not the journaled "
      + "\(journaled[index].key) asking \(journaled[index].request)"
  }
}
