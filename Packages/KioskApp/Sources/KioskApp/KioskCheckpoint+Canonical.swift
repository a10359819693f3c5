import CanonicalJSON
import Journal
import KioskCommands
import Menu
import Stock
import Tabs

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

// A checkpoint in a journal of format 3 is in the canonical form (checkpoint
// format 4; docs/journal.md, "Checkpoints"): the slices, undo entries and
// intents as the replay lane writes them, money in minor units. Its size is
// the open tabs, so the tabs are written and read by hand
// (`KioskCheckpoint+CanonicalTabs.swift`) and the rest goes through
// `JSONValue`, spliced at a placeholder, as format 3 does with `JSONEncoder`.

extension KioskCheckpoint {
  /// The form of a checkpoint in a journal of format 3.
  public static let canonicalFormat = 4

  /// The tabs slice written in place of the real one: its `nextID`, which no
  /// till issues, makes its bytes unique in the checkpoint.
  static let canonicalPlaceholderBytes = Array(
    #""tabs":{"nextID":-7254311089,"open":{},"settled":{"count":0,"total":0}}"#.utf8)

  /// The checkpoint's canonical form, tabs included (the strict path and the tests').
  /// Nil when a slice a new domain added has none (it encodes a floating-point
  /// number): the checkpoint is then written in format 3.
  public var canonical: JSONValue? {
    guard canonicalHolds, let state = Self.canonicalState(state) else { return nil }
    var members: [String: JSONValue] = [
      "day": .integer(day), "format": .integer(Self.canonicalFormat),
      "ledgerNumbersUsed": ledgerNumbersUsed.map { .integer($0) } ?? .null,
      "ledgerStart": ledgerStart.map(Self.canonical(_:)) ?? .null,
      "openIntents": .array(openIntents.map(\.canonical)), "paymentsJournaled": .bool(paymentsJournaled),
      "previousDay": previousDay.map(Self.canonical(_:)) ?? .null,
      "settledTabs": settledTabs.map(Self.canonical(_:)) ?? .null, "state": state,
      "undo": .array(undo.map(\.canonical)),
    ]
    // Left out, not null, while the till has no name: an unnamed till's checkpoints keep their bytes.
    if let till { members["till"] = .string(till) }
    return .object(members)
  }

  /// The canonical bytes, with the tabs written by hand: the same bytes as
  /// `canonical?.compactText`. Nil when `canonical` is.
  func canonicalBytes() -> [UInt8]? {
    var light = self
    light.state.tabs = Self.placeholder
    guard let value = light.canonical else { return nil }
    let bytes = value.compactBytes
    let found = Self.occurrences(of: Self.canonicalPlaceholderBytes, in: bytes[...])
    guard found.count == 1, let at = found.first else { return canonical!.compactBytes }
    var writer = JournalJSONWriter(version: JournalFormat.canonicalVersion)
    state.tabs.writeCanonical(to: &writer)
    var spliced = Array(bytes[..<at])
    spliced.reserveCapacity(bytes.count + writer.bytes.count)
    spliced.append(contentsOf: #""tabs":"#.utf8)
    spliced.append(contentsOf: writer.bytes)
    spliced.append(contentsOf: bytes[(at + Self.canonicalPlaceholderBytes.count)...])
    return spliced
  }

  /// Reads a checkpoint of format 4: the tabs and the undo history by hand
  /// when they are as written, the rest (or all, when they are not) by the
  /// strict parser.
  static func readCanonical(_ bytes: ArraySlice<UInt8>) throws(CanonicalError) -> KioskCheckpoint {
    let found = occurrences(of: [Array(#""tabs":{"nextID":"#.utf8), Array(#""undo":["#.utf8)], in: bytes)
    // What was read by hand, and the bytes it stands in for, in the order they come.
    var tabs: TabsState?
    var undo: [UndoHistory.Entry]?
    var cuts: [(range: Range<Int>, placeholder: String)] = []
    if found[0].count == 1, let at = found[0].first {
      var reader = JournalJSONReader(bytes, at: at + 7)  // after `"tabs":`
      if let read = reader.canonicalTabs() {
        tabs = read
        cuts.append(((at + 7)..<reader.index, #"{"nextID":1,"open":{},"settled":{"count":0,"total":0}}"#))
      }
    }
    if found[1].count == 1, let at = found[1].first {
      var reader = JournalJSONReader(bytes, at: at + 7)  // after `"undo":`
      if let read = reader.canonicalUndoEntries() {
        undo = read
        cuts.append(((at + 7)..<reader.index, "[]"))
      }
    }
    guard !cuts.isEmpty else { return try KioskCheckpoint(canonical: JSONCursor(try JSONValue.parse(bytes))) }
    var light: [UInt8] = []
    light.reserveCapacity(bytes.count)
    var from = bytes.startIndex
    for cut in cuts.sorted(by: { $0.range.lowerBound < $1.range.lowerBound }) {
      light.append(contentsOf: bytes[from..<cut.range.lowerBound])
      light.append(contentsOf: cut.placeholder.utf8)
      from = cut.range.upperBound
    }
    light.append(contentsOf: bytes[from...])
    var checkpoint = try KioskCheckpoint(canonical: JSONCursor(try JSONValue.parse(light)))
    if let tabs { checkpoint.state.tabs = tabs }
    if let undo { checkpoint.undo = undo }
    return checkpoint
  }

  /// Reads the canonical form, checking it as the replay lane checks its state.
  public init(canonical cursor: JSONCursor) throws(CanonicalError) {
    _ = try cursor.object(keys: [
      "day", "format", "ledgerNumbersUsed", "ledgerStart", "openIntents", "paymentsJournaled", "previousDay",
      "settledTabs", "state", "till", "undo",
    ])
    let format = try cursor.field("format")
    guard try format.integer() == Self.canonicalFormat else {
      throw format.fail("a checkpoint in canonical form is format \(Self.canonicalFormat)")
    }
    self.init(
      day: try cursor.field("day").integer(in: 1...Int.max), state: try Self.state(cursor.field("state")),
      undo: try cursor.field("undo").array().map { cursor throws(CanonicalError) in
        try UndoHistory.Entry(canonical: cursor)
      },
      openIntents: try cursor.field("openIntents").array().map { cursor throws(CanonicalError) in
        try PaymentIntent(canonical: cursor)
      },
      paymentsJournaled: try cursor.field("paymentsJournaled").bool(),
      previousDay: try cursor.optionalField("previousDay").map(Self.closedDay(_:)),
      ledgerNumbersUsed: try cursor.optionalField("ledgerNumbersUsed")?.integer(in: 0...Int.max),
      settledTabs: try cursor.optionalField("settledTabs").map(Self.mark(_:)),
      ledgerStart: try cursor.optionalField("ledgerStart").map(Self.anchor(_:)),
      till: try cursor.optionalField("till")?.string())
    self.format = Self.canonicalFormat
  }

  /// Whether the canonical form holds every amount in the checkpoint: whole
  /// minor units below `CanonicalMoney.limit`, as a menu of whole cents and
  /// sums of its prices always are.
  var canonicalHolds: Bool {
    // The undo history's records hold what a journaled record holds (`amountWithoutCanonicalForm`).
    guard undo.allSatisfy({ $0.record.amountWithoutCanonicalForm == nil }) else { return false }
    var amounts = state.menu.items.values.map(\.price) + [state.tabs.settled.total] + openIntents.map(\.amount)
    for entry in undo {
      if case .reopen(_, _, let total, _) = entry.step { amounts.append(total) }
    }
    return amounts.allSatisfy { KioskRecord.minorUnits($0) != nil }
  }

  /// Whether `bytes` are a checkpoint of `canonicalFormat`: `{"day":N,"format":4,`, as it is written.
  static func isCanonical(_ bytes: ArraySlice<UInt8>) -> Bool {
    var reader = JournalJSONReader(bytes)
    return reader.literal(#"{"day":"#) && reader.int() != nil && reader.literal(#","format":4,"#)
  }

  // MARK: The state

  /// `{"menu", "stock", "tabs"}` and any slice a new domain added, through its
  /// `Codable` (`JSONEncoder`, sorted keys, read back strictly); nil when one has no canonical form.
  static func canonicalState(_ state: KioskSnapshot) -> JSONValue? {
    var fields = otherSlices(of: state)
    guard fields != nil else { return nil }
    fields?["menu"] = state.menu.canonical
    fields?["stock"] = state.stock.canonical
    fields?["tabs"] = state.tabs.canonical
    return fields.map(JSONValue.object)
  }

  /// The slices other than menu, stock and tabs, in canonical form; nil when one has none.
  private static func otherSlices(of state: KioskSnapshot) -> [String: JSONValue]? {
    var rest = state
    rest.menu = MenuState()
    rest.stock = StockState()
    rest.tabs = TabsState()
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    guard let bytes = try? encoder.encode(rest), case .object(var fields)? = try? JSONValue.parse(bytes) else {
      return nil
    }
    for known in ["menu", "stock", "tabs"] { fields[known] = nil }
    return fields
  }

  /// The state: menu, stock and tabs in canonical form, any other slice through its `Codable`.
  private static func state(_ cursor: JSONCursor) throws(CanonicalError) -> KioskSnapshot {
    var others: [String: JSONValue] = [:]
    for (name, slice) in try cursor.object() where !["menu", "stock", "tabs"].contains(name) {
      others[name] = slice.value
    }
    var state: KioskSnapshot
    do {
      state = try JSONDecoder().decode(KioskSnapshot.self, from: Data(JSONValue.object(others).compactBytes))
    } catch {
      throw cursor.fail("a slice does not decode: \(JournalError.decoding(error))")
    }
    state.menu = try MenuState(canonical: cursor.field("menu"))
    state.stock = try StockState(canonical: cursor.field("stock"))
    state.tabs = try TabsState(canonical: cursor.field("tabs"))
    return state
  }

  // MARK: Links to other files

  static func canonical(_ day: ClosedDay) -> JSONValue {
    .object([
      "archive": .string(day.archive), "carriedDigest": .string(day.carriedDigest), "day": .integer(day.day),
      "lastSequence": .integer(Int(day.lastSequence)),
    ])
  }

  static func closedDay(_ cursor: JSONCursor) throws(CanonicalError) -> ClosedDay {
    _ = try cursor.object(keys: ["archive", "carriedDigest", "day", "lastSequence"])
    return ClosedDay(
      day: try cursor.field("day").integer(in: 1...Int.max), archive: try cursor.field("archive").string(),
      lastSequence: UInt64(try cursor.field("lastSequence").integer(in: 0...Int.max)),
      carriedDigest: try cursor.field("carriedDigest").string())
  }

  static func canonical(_ mark: DerivedLog.Mark) -> JSONValue {
    .object([
      "digest": mark.digest.map { .integer(Int($0)) } ?? .null, "end": .integer(mark.end),
      "entries": .integer(mark.entries),
    ])
  }

  static func mark(_ cursor: JSONCursor) throws(CanonicalError) -> DerivedLog.Mark {
    _ = try cursor.object(keys: ["digest", "end", "entries"])
    let digest = try cursor.optionalField("digest")?.integer(in: 0...Int(UInt32.max))
    return DerivedLog.Mark(
      end: try cursor.field("end").integer(in: 0...Int.max),
      entries: try cursor.field("entries").integer(in: 0...Int.max), digest: digest.map { UInt32($0) })
  }

  /// The salt is a string of its decimal digits: a canonical number is an `Int`, and a salt is any `UInt64`.
  static func canonical(_ anchor: JournalAnchor) -> JSONValue {
    .object([
      "offset": .integer(anchor.offset), "salt": .string(String(anchor.salt)),
      "sequence": .integer(Int(anchor.sequence)),
    ])
  }

  static func anchor(_ cursor: JSONCursor) throws(CanonicalError) -> JournalAnchor {
    _ = try cursor.object(keys: ["offset", "salt", "sequence"])
    let saltCursor = try cursor.field("salt")
    let text = try saltCursor.string()
    guard let salt = UInt64(text), String(salt) == text else {
      throw saltCursor.fail("expected a salt as its decimal digits, found \"\(text)\"")
    }
    return JournalAnchor(
      offset: try cursor.field("offset").integer(in: 0...Int.max),
      sequence: UInt64(try cursor.field("sequence").integer(in: 1...Int.max)),
      salt: salt)
  }
}
