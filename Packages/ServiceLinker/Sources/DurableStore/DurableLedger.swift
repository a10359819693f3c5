import FeatureKit

/// Everything a durable store keeps: the feature's state, the intents still
/// open, the undo stack, and the period. A checkpoint is this, whole; replay
/// rebuilds it by applying each record after the checkpoint with the same
/// code the live store runs.
@usableFromInline struct DurableLedger<Model: DurableFeature> {
  /// The feature's state.
  @usableFromInline var state: Model.State
  /// Intents journaled and not closed, in the order they were opened.
  @usableFromInline var open: [Intent<Model.Request>] = []
  /// The inverses `undo` steps, the next one last.
  @usableFromInline var undo: [Model.Action] = []
  /// How many periods were closed before this one.
  @usableFromInline var period = 0
  /// The period this one follows; nil in the first.
  @usableFromInline var previous: DurablePeriodLink?
  /// The period's end, once its journal holds its `periodClosed` record:
  /// nothing may follow it. Never in a checkpoint.
  @usableFromInline var ended: DurablePeriodLink?

  /// At most this many steps can be undone.
  @inlinable static var undoDepth: Int { 64 }

  /// Applies one step of `kind`: closes the outcome's intent, keeps the
  /// inverse a sent action has (computed on the state before it, so the
  /// state is never copied), steps the action, and opens the intents its
  /// requests need, keyed by the record `sequence` of journal `salt`. A sent
  /// or fed-back step the feature refuses (`isRefusal`) does nothing more:
  /// it is not journaled, so it must leave nothing behind. An outcome or an
  /// undo is journaled whatever its action's step says; so is every step
  /// `replaying` a journal, which may hold refused steps a store wrote before
  /// refusals were left out, and must rebuild what that store kept.
  ///
  /// Intents whose keys clash with one open (`clash`) open nothing: live,
  /// the feature's key function is wrong; replaying, the journal is.
  // Always inlined: left out of line (as the optimizer chose once it grew),
  // its result came back through outlined copies and destroys, about 300
  // instructions more per send (callgrind, `kiosk-bench --durable-sends`).
  @inlinable @inline(__always) mutating func apply(
    _ kind: DurableStepKind, _ action: Model.Action?, sequence: UInt64, salt: UInt64, replaying: Bool = false
  ) -> DurableApplied<Model> {
    guard let action else {
      close(kind)
      return DurableApplied(result: nil, intents: [], refused: false)
    }
    var inverse: Model.Action?
    if case .sent = kind { inverse = Model.inverse(of: action, before: state) }
    let result = Model.step(&state, action)
    switch kind {
    case .sent, .fedBack:
      if !replaying, Model.isRefusal(result.outcome) {
        return DurableApplied(result: result, intents: [], refused: true)
      }
    case .undone, .outcome, .periodClosed: break
    }
    if let inverse {
      undo.append(inverse)
      if undo.count > Self.undoDepth { undo.removeFirst(undo.count - Self.undoDepth) }
    }
    close(kind)
    let requests = Model.requests(after: action, state: state, result: result)
    // Most steps ask no service for anything: they build no intents.
    guard !requests.isEmpty else { return DurableApplied(result: result, intents: [], refused: false) }
    let intents = requests.enumerated().map {
      Intent(
        key: Model.key(for: $0.element, salt: salt, sequence: sequence, index: $0.offset), request: $0.element)
    }
    for (index, intent) in intents.enumerated() {
      // An outcome closes every intent under its key: two would close as one.
      if open.contains(where: { $0.key == intent.key }) || intents[..<index].contains(where: { $0.key == intent.key }) {
        return DurableApplied(result: result, intents: intents, refused: false, clash: intent.key)
      }
    }
    open += intents
    return DurableApplied(result: result, intents: intents, refused: false)
  }

  /// What a step of `kind` ends besides its action: the undo it pops, the intent it closes.
  @inlinable mutating func close(_ kind: DurableStepKind) {
    switch kind {
    case .undone: undo.removeLast()
    case .outcome(let key, _): open.removeAll { $0.key == key }
    case .sent, .fedBack, .periodClosed: break
    }
  }

  /// Everything the ledger keeps, as a checkpoint; `opensPeriod` for the first record of a period's journal.
  func checkpoint(opensPeriod: Bool = false) -> DurableCheckpoint<Model> {
    DurableCheckpoint(
      state: state, open: open, undo: undo, period: period, previous: previous, opensPeriod: opensPeriod)
  }

  /// The checkpoint's payload, in the feature's format, and the state it
  /// keeps: the ledger's, as the feature keeps it (`checkpointing`), which
  /// the store goes on from once the checkpoint is journaled.
  func checkpointBytes(version: UInt16, environment: Model.Environment) -> (bytes: [UInt8], state: Model.State) {
    var kept = checkpoint()
    kept.state = Model.checkpointing(state, opensPeriod: false, environment: environment)
    return (Model.Format.writeCheckpoint(kept, version: version), kept.state)
  }

  /// A ledger read back from a checkpoint's payload.
  init(checkpoint bytes: ArraySlice<UInt8>, version: UInt16) throws {
    let checkpoint = try Model.Format.readCheckpoint(bytes, version: version)
    state = checkpoint.state
    open = checkpoint.open
    undo = checkpoint.undo
    period = checkpoint.period
    previous = checkpoint.previous
  }

  /// A ledger starting at `state`, nothing open.
  init(state: Model.State) { self.state = state }
}

/// What applying one step did.
@usableFromInline struct DurableApplied<Model: DurableFeature> {
  /// What the step did; nil when there was no action.
  @usableFromInline var result: StepResult<Model.Effect, Model.Outcome>?
  /// The intents it opened, in order.
  @usableFromInline var intents: [Intent<Model.Request>]
  /// Whether the feature refused it: nothing is journaled and nothing starts.
  @usableFromInline var refused: Bool
  /// A key of the step's intents that another open intent (or another of
  /// them) already has; its intents were not opened.
  @usableFromInline var clash: IntentKey?

  @inlinable init(
    result: StepResult<Model.Effect, Model.Outcome>?, intents: [Intent<Model.Request>], refused: Bool,
    clash: IntentKey? = nil
  ) {
    self.result = result
    self.intents = intents
    self.refused = refused
    self.clash = clash
  }
}
