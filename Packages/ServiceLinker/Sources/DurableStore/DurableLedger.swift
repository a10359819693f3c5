import CanonicalJSON
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

  /// At most this many steps can be undone.
  @inlinable static var undoDepth: Int { 64 }

  /// Applies one step of `kind`: closes the outcome's intent, keeps the
  /// inverse a sent action has (computed on the state before it, so the
  /// state is never copied), steps the action, and opens the intents its
  /// requests need, keyed by the record `sequence` of journal `salt`.
  @inlinable mutating func apply(
    _ kind: DurableRecord<Model>.Kind, _ action: Model.Action?, sequence: UInt64, salt: UInt64
  ) -> (result: StepResult<Model.Effect, Model.Outcome>?, intents: [Intent<Model.Request>]) {
    switch kind {
    case .sent:
      if let action, let inverse = Model.inverse(of: action, before: state) {
        undo.append(inverse)
        if undo.count > Self.undoDepth { undo.removeFirst(undo.count - Self.undoDepth) }
      }
    case .undone: undo.removeLast()
    case .outcome(let key, _): open.removeAll { $0.key == key }
    case .fedBack: break
    }
    guard let action else { return (nil, []) }
    let result = Model.step(&state, action)
    let requests = Model.requests(after: action, state: state, result: result)
    // Most steps ask no service for anything: they build no intents.
    guard !requests.isEmpty else { return (result, []) }
    let intents = requests.enumerated().map {
      Intent(key: IntentKey(salt: salt, sequence: sequence, index: $0.offset), request: $0.element)
    }
    open += intents
    return (result, intents)
  }

  /// The checkpoint's payload.
  var checkpointBytes: [UInt8] {
    let value = JSONValue.object([
      "state": state.canonical,
      "open": DurableRecord<Model>.value(of: open),
      "undo": .array(undo.map(\.canonical)),
      "period": .integer(period),
    ])
    return value.compactBytes
  }

  /// A ledger read back from a checkpoint's payload.
  init(checkpoint bytes: some Sequence<UInt8>) throws(CanonicalError) {
    let cursor = JSONCursor(try JSONValue.parse(bytes), path: "checkpoint")
    _ = try cursor.object(keys: ["state", "open", "undo", "period"])
    state = try Model.State(canonical: cursor.field("state"))
    open = try DurableRecord<Model>.intents(cursor.field("open"))
    undo = []
    for item in try cursor.field("undo").array() { undo.append(try Model.Action(canonical: item)) }
    period = try cursor.field("period").integer(in: 0...Int.max)
  }

  /// A ledger starting at `state`, nothing open.
  init(state: Model.State) { self.state = state }
}
