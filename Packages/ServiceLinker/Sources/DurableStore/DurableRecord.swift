import CanonicalJSON
import FeatureKit
import Journal

/// One record of a durable store's journal: a step, with the intents it
/// opened. Its payload is canonical JSON, so the same record is the same bytes.
@usableFromInline struct DurableRecord<Model: DurableFeature> {
  /// What made the step.
  @usableFromInline enum Kind: Equatable {
    /// The app sent the action.
    case sent
    /// Asynchronous work named `task` fed the action back.
    case fedBack(task: String)
    /// `undo` stepped the action, the inverse on top of the undo stack.
    case undone
    /// The intent `key` closed: performed (the action is what its service's
    /// answer fed back, if anything) or, with `abandoned`, given up.
    case outcome(key: IntentKey, abandoned: String?)
  }

  /// What made the step.
  @usableFromInline var kind: Kind
  /// The action stepped; nil for an outcome that feeds nothing back.
  @usableFromInline var action: Model.Action?
  /// The intents the step opened, in order.
  @usableFromInline var intents: [Intent<Model.Request>]

  /// A record's payload after a frame the journal fills in
  /// (`WriteAheadLog.append(framed:)`): its canonical text, written member
  /// by member in the canonical key order (`abandoned`, `action`, `intents`,
  /// `key`, `kind`, `task`), with no object built for it, since every step
  /// writes one.
  @inlinable static func framed(_ kind: Kind, _ action: Model.Action?, _ intents: [Intent<Model.Request>]) -> [UInt8] {
    var out = JournalFormat.reservedFrame
    out.reserveCapacity(192)
    out.append(UInt8(ascii: "{"))
    if case .outcome(_, let abandoned) = kind {
      JSONValue.writeLiteral(#""abandoned":"#, to: &out)
      if let abandoned { JSONValue.writeString(abandoned, to: &out) } else { JSONValue.writeLiteral("null", to: &out) }
      out.append(UInt8(ascii: ","))
    }
    JSONValue.writeLiteral(#""action":"#, to: &out)
    if let action { action.writeCanonical(to: &out) } else { JSONValue.writeLiteral("null", to: &out) }
    JSONValue.writeLiteral(#","intents":"#, to: &out)
    if intents.isEmpty {
      JSONValue.writeLiteral("[]", to: &out)
    } else {
      Self.value(of: intents).writeCompact(to: &out)
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
    }
    out.append(UInt8(ascii: "}"))
    return out
  }

  /// A record read back from its payload.
  init(bytes: some Sequence<UInt8>) throws(CanonicalError) {
    let cursor = JSONCursor(try JSONValue.parse(bytes), path: "record")
    _ = try cursor.object(keys: ["kind", "action", "intents", "task", "key", "abandoned"])
    let kindName = try cursor.field("kind").string()
    switch kindName {
    case "send": kind = .sent
    case "fed": kind = .fedBack(task: try cursor.field("task").string())
    case "undo": kind = .undone
    case "outcome":
      let abandoned = try cursor.optionalField("abandoned").flatMap { cursor throws(CanonicalError) in
        cursor.value == .null ? nil : try cursor.string()
      }
      kind = .outcome(key: IntentKey(text: try cursor.field("key").string()), abandoned: abandoned)
    default: throw cursor.fail("unknown record kind '\(kindName)'")
    }
    let actionCursor = try cursor.field("action")
    action = actionCursor.value == .null ? nil : try Model.Action(canonical: actionCursor)
    intents = try Self.intents(cursor.field("intents"))
  }

  /// Intents as records and checkpoints hold them: an array of `{"key", "request"}`.
  @inlinable static func value(of intents: [Intent<Model.Request>]) -> JSONValue {
    .array(intents.map { .object(["key": .string($0.key.text), "request": $0.request.canonical]) })
  }

  /// Intents read back from `cursor`, an array of `{"key", "request"}`.
  static func intents(_ cursor: JSONCursor) throws(CanonicalError) -> [Intent<Model.Request>] {
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
