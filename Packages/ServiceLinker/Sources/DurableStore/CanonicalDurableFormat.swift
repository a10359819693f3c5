import CanonicalJSON
import FeatureKit

/// The format a durable store writes unless its feature names another: each
/// record and checkpoint is canonical JSON, so the same step is the same bytes.
///
/// A record is `{"abandoned", "action", "intents", "key", "kind", "task"}`
/// (`abandoned` and `key` for an outcome, `task` for work fed back), or a
/// period's end, `{"action": null, "archive", "intents": [], "kind": "end",
/// "period"}`; a checkpoint is `{"open", "period", "previous", "state",
/// "undo"}` (`previous`, `{"archive", "lastSequence", "period"}`, after the first period).
public enum CanonicalDurableFormat<Model: DurableFeature>: DurableFormat {
  /// The record's canonical text, written member by member in the canonical
  /// key order, with no object built for it, since every step writes one.
  @inlinable public static func writeRecord(
    _ kind: DurableStepKind, _ action: Model.Action?, _ intents: [Intent<Model.Request>],
    result: StepResult<Model.Effect, Model.Outcome>?, version: UInt16, to out: inout [UInt8]
  ) {
    // The fixed text between the variable parts is written as few literals
    // as it can be: each copy costs about a hundred instructions, and a
    // sent step's whole tail is fixed.
    out.reserveCapacity(out.count + 176)
    if case .periodClosed(let period, let archive) = kind {
      JSONValue.writeLiteral(#"{"action":null,"archive":"#, to: &out)
      JSONValue.writeString(archive, to: &out)
      JSONValue.writeLiteral(#","intents":[],"kind":"end","period":"#, to: &out)
      JSONValue.writeInteger(period, to: &out)
      out.append(UInt8(ascii: "}"))
      return
    }
    if case .outcome(_, let abandoned) = kind {
      JSONValue.writeLiteral(#"{"abandoned":"#, to: &out)
      if let abandoned { JSONValue.writeString(abandoned, to: &out) } else { JSONValue.writeLiteral("null", to: &out) }
      JSONValue.writeLiteral(#","action":"#, to: &out)
    } else {
      JSONValue.writeLiteral(#"{"action":"#, to: &out)
    }
    if let action { action.writeCanonical(to: &out) } else { JSONValue.writeLiteral("null", to: &out) }
    if intents.isEmpty, case .sent = kind {
      JSONValue.writeLiteral(#","intents":[],"kind":"send"}"#, to: &out)
      return
    }
    JSONValue.writeLiteral(#","intents":"#, to: &out)
    if intents.isEmpty {
      JSONValue.writeLiteral("[]", to: &out)
    } else {
      value(of: intents).writeCompact(to: &out)
    }
    if case .outcome(let key, _) = kind {
      JSONValue.writeLiteral(#","key":"#, to: &out)
      JSONValue.writeString(key.text, to: &out)
    }
    JSONValue.writeLiteral(#","kind":"#, to: &out)
    switch kind {
    case .sent: JSONValue.writeLiteral(#""send""#, to: &out)
    case .fedBack(let task):
      JSONValue.writeLiteral(#""fed","task":"#, to: &out)
      JSONValue.writeString(task, to: &out)
    case .undone: JSONValue.writeLiteral(#""undo""#, to: &out)
    case .outcome: JSONValue.writeLiteral(#""outcome""#, to: &out)
    case .periodClosed: preconditionFailure("a period's end is written above")
    }
    out.append(UInt8(ascii: "}"))
  }

  /// A record read back from its canonical text.
  public static func readRecord(_ payload: ArraySlice<UInt8>, version: UInt16) throws -> DurableRecord<Model> {
    let cursor = JSONCursor(try JSONValue.parse(payload), path: "record")
    _ = try cursor.object(keys: ["kind", "action", "intents", "task", "key", "abandoned", "archive", "period"])
    let kindName = try cursor.field("kind").string()
    let kind: DurableStepKind
    switch kindName {
    case "send": kind = .sent
    case "fed": kind = .fedBack(task: try cursor.field("task").string())
    case "undo": kind = .undone
    case "outcome":
      let abandoned = try cursor.optionalField("abandoned").flatMap { cursor throws(CanonicalError) in
        cursor.value == .null ? nil : try cursor.string()
      }
      kind = .outcome(key: IntentKey(text: try cursor.field("key").string()), abandoned: abandoned)
    case "end":
      kind = .periodClosed(
        period: try cursor.field("period").integer(in: 0...Int.max), archive: try cursor.field("archive").string())
    default: throw cursor.fail("unknown record kind '\(kindName)'")
    }
    let actionCursor = try cursor.field("action")
    let action = actionCursor.value == .null ? nil : try Model.Action(canonical: actionCursor)
    return DurableRecord(kind: kind, action: action, intents: try intents(cursor.field("intents")))
  }

  /// The checkpoint's canonical text.
  public static func writeCheckpoint(_ checkpoint: DurableCheckpoint<Model>, version: UInt16) -> [UInt8] {
    var members: [String: JSONValue] = [
      "state": checkpoint.state.canonical,
      "open": value(of: checkpoint.open),
      "undo": .array(checkpoint.undo.map(\.canonical)),
      "period": .integer(checkpoint.period),
    ]
    if let previous = checkpoint.previous { members["previous"] = value(of: previous) }
    return JSONValue.object(members).compactBytes
  }

  /// A checkpoint read back from its canonical text.
  public static func readCheckpoint(_ payload: ArraySlice<UInt8>, version: UInt16) throws
    -> DurableCheckpoint<Model>
  {
    let cursor = JSONCursor(try JSONValue.parse(payload), path: "checkpoint")
    _ = try cursor.object(keys: ["state", "open", "undo", "period", "previous"])
    var undo: [Model.Action] = []
    for item in try cursor.field("undo").array() { undo.append(try Model.Action(canonical: item)) }
    return DurableCheckpoint(
      state: try Model.State(canonical: cursor.field("state")), open: try intents(cursor.field("open")), undo: undo,
      period: try cursor.field("period").integer(in: 0...Int.max),
      previous: try cursor.optionalField("previous").map { cursor throws(CanonicalError) in try link(cursor) })
  }

  /// A period link as checkpoints hold it: `{"archive", "lastSequence", "period"}`.
  public static func value(of link: DurablePeriodLink) -> JSONValue {
    .object([
      // A journal never numbers 2^63 records: the sequence is a JSON integer.
      "archive": .string(link.archive), "lastSequence": .integer(Int(link.lastSequence)),
      "period": .integer(link.period),
    ])
  }

  /// A period link read back from `cursor`.
  public static func link(_ cursor: JSONCursor) throws(CanonicalError) -> DurablePeriodLink {
    _ = try cursor.object(keys: ["archive", "lastSequence", "period"])
    return DurablePeriodLink(
      period: try cursor.field("period").integer(in: 0...Int.max), archive: try cursor.field("archive").string(),
      lastSequence: UInt64(try cursor.field("lastSequence").integer(in: 1...Int.max)))
  }

  /// Intents as records and checkpoints hold them: an array of `{"key", "request"}`.
  @inlinable public static func value(of intents: [Intent<Model.Request>]) -> JSONValue {
    .array(intents.map { .object(["key": .string($0.key.text), "request": $0.request.canonical]) })
  }

  /// Intents read back from `cursor`, an array of `{"key", "request"}`.
  public static func intents(_ cursor: JSONCursor) throws(CanonicalError) -> [Intent<Model.Request>] {
    var intents: [Intent<Model.Request>] = []
    for item in try cursor.array() {
      _ = try item.object(keys: ["key", "request"])
      intents.append(
        Intent(
          key: IntentKey(text: try item.field("key").string()),
          request: try Model.Request(canonical: item.field("request"))))
    }
    return intents
  }
}
