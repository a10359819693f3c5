import CanonicalJSON
import DurableStore
import FeatureKit
import Journal

/// Tea journaled in a format of its own, as an app with older journals keeps
/// its records: tab-separated fields, each a JSON value or `-`.
enum TextTea: TeaVariant {
  typealias Format = TeaTextFormat<TextTea>
}

/// A record is `<kind>\t<task or key>\t<abandoned>\t<action>\t<intents>`
/// (a period's end, `end\t<archive>\t<period>\t-\t[]`); a checkpoint is
/// `tea-checkpoint\t<period>\t<state>\t<open>\t<undo>\t<previous period>`.
/// Compact JSON never holds a raw tab, so the tab splits the fields. Its
/// payloads are not canonical, so its journals are of version 2, whose
/// payloads are their writer's own.
enum TeaTextFormat<Variant: TeaVariant>: DurableFormat {
  typealias Model = Variant
  private typealias Canonical = CanonicalDurableFormat<Variant>

  static var versions: ClosedRange<UInt16> { JournalFormat.encoderVersion...JournalFormat.encoderVersion }

  /// Why a payload is not a record or a checkpoint of this format.
  struct NotTeaText: Error, CustomStringConvertible {
    var description: String
  }

  static func writeRecord(
    _ kind: DurableStepKind, _ action: Tea.Action?, _ intents: [Intent<Tea.Request>],
    result: StepResult<Tea.Effect, Tea.Outcome>?, version: UInt16, to out: inout [UInt8]
  ) {
    if case .periodClosed(let period, let archive) = kind {
      out.append(contentsOf: "end\t\(JSONValue.string(archive).compactText)\t\(period)\t-\t[]".utf8)
      return
    }
    let (name, detail, abandoned): (String, String?, String?) =
      switch kind {
      case .sent: ("send", nil, nil)
      case .fedBack(let task): ("fed", task, nil)
      case .undone: ("undo", nil, nil)
      case .outcome(let key, let abandoned): ("outcome", key.text, abandoned)
      case .periodClosed: preconditionFailure("written above")
      }
    let fields = [
      name, detail.map { JSONValue.string($0).compactText } ?? "-",
      abandoned.map { JSONValue.string($0).compactText } ?? "-", action?.canonical.compactText ?? "-",
      Canonical.value(of: intents).compactText,
    ]
    out.append(contentsOf: fields.joined(separator: "\t").utf8)
  }

  static func readRecord(_ payload: ArraySlice<UInt8>, version: UInt16) throws -> DurableRecord<Variant> {
    let fields = try self.fields(of: payload, count: 5)
    let detail = try fields[1] == "-" ? nil : string(fields[1])
    let kind: DurableStepKind
    switch (fields[0], detail) {
    case ("send", nil): kind = .sent
    case ("fed", let task?): kind = .fedBack(task: task)
    case ("undo", nil): kind = .undone
    case ("outcome", let key?): kind = .outcome(key: IntentKey(text: key), abandoned: try optionalString(fields[2]))
    case ("end", let archive?):
      guard let period = Int(fields[2]), period >= 0 else { throw NotTeaText(description: "no period '\(fields[2])'") }
      kind = .periodClosed(period: period, archive: archive)
    default: throw NotTeaText(description: "no record of kind '\(fields[0])'")
    }
    let action = try fields[3] == "-" ? nil : Tea.Action(canonical: cursor(fields[3], "action"))
    return DurableRecord(kind: kind, action: action, intents: try Canonical.intents(cursor(fields[4], "intents")))
  }

  static func writeCheckpoint(_ checkpoint: DurableCheckpoint<Variant>, version: UInt16) -> [UInt8] {
    let fields = [
      "tea-checkpoint", String(checkpoint.period), checkpoint.state.canonical.compactText,
      Canonical.value(of: checkpoint.open).compactText, JSONValue.array(checkpoint.undo.map(\.canonical)).compactText,
      checkpoint.previous.map { Canonical.value(of: $0).compactText } ?? "-",
    ]
    return Array(fields.joined(separator: "\t").utf8)
  }

  static func readCheckpoint(_ payload: ArraySlice<UInt8>, version: UInt16) throws -> DurableCheckpoint<Variant> {
    let fields = try self.fields(of: payload, count: 6)
    guard fields[0] == "tea-checkpoint", let period = Int(fields[1]), period >= 0 else {
      throw NotTeaText(description: "not a tea checkpoint")
    }
    var undo: [Tea.Action] = []
    for item in try cursor(fields[4], "undo").array() { undo.append(try Tea.Action(canonical: item)) }
    let state = try Tea.State(canonical: cursor(fields[2], "state"))
    return DurableCheckpoint(
      state: state, open: try Canonical.intents(cursor(fields[3], "open")), undo: undo, period: period,
      previous: try fields[5] == "-" ? nil : Canonical.link(cursor(fields[5], "previous")))
  }

  private static func fields(of payload: ArraySlice<UInt8>, count: Int) throws -> [String] {
    let fields = String(decoding: payload, as: UTF8.self).split(separator: "\t", omittingEmptySubsequences: false)
    guard fields.count == count else { throw NotTeaText(description: "\(fields.count) fields, not \(count)") }
    return fields.map(String.init)
  }

  private static func cursor(_ text: String, _ path: String) throws -> JSONCursor {
    JSONCursor(try JSONValue.parse(Array(text.utf8)), path: path)
  }

  private static func string(_ text: String) throws -> String { try cursor(text, "field").string() }

  private static func optionalString(_ text: String) throws -> String? { text == "-" ? nil : try string(text) }
}

/// Tea whose form changed: its journals of version 2 hold `TeaTextFormat`'s
/// records, and it writes canonical JSON in a journal it begins (version 3),
/// as an app keeps writing a day begun before it changed its form in the old one.
enum ChangedTea: TeaVariant {
  typealias Format = ChangedTeaFormat
}

/// Text in a journal of version 2, canonical JSON in one of version 3.
enum ChangedTeaFormat: DurableFormat {
  typealias Model = ChangedTea
  private typealias Old = TeaTextFormat<ChangedTea>
  private typealias New = CanonicalDurableFormat<ChangedTea>

  static var versions: ClosedRange<UInt16> { JournalFormat.encoderVersion...JournalFormat.canonicalVersion }

  static func writeRecord(
    _ kind: DurableStepKind, _ action: Tea.Action?, _ intents: [Intent<Tea.Request>],
    result: StepResult<Tea.Effect, Tea.Outcome>?, version: UInt16, to out: inout [UInt8]
  ) {
    if version < JournalFormat.canonicalVersion {
      Old.writeRecord(kind, action, intents, result: result, version: version, to: &out)
    } else {
      New.writeRecord(kind, action, intents, result: result, version: version, to: &out)
    }
  }

  static func readRecord(_ payload: ArraySlice<UInt8>, version: UInt16) throws -> DurableRecord<ChangedTea> {
    version < JournalFormat.canonicalVersion
      ? try Old.readRecord(payload, version: version) : try New.readRecord(payload, version: version)
  }

  static func writeCheckpoint(_ checkpoint: DurableCheckpoint<ChangedTea>, version: UInt16) -> [UInt8] {
    version < JournalFormat.canonicalVersion
      ? Old.writeCheckpoint(checkpoint, version: version) : New.writeCheckpoint(checkpoint, version: version)
  }

  static func readCheckpoint(_ payload: ArraySlice<UInt8>, version: UInt16) throws
    -> DurableCheckpoint<ChangedTea>
  {
    version < JournalFormat.canonicalVersion
      ? try Old.readCheckpoint(payload, version: version) : try New.readCheckpoint(payload, version: version)
  }
}
