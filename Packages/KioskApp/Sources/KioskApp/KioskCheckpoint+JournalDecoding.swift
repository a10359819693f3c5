import Journal
import KioskCommands
import Menu
import Tabs

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A checkpoint reads its own journal bytes: every process that opens the
/// journal decodes the last checkpoint, whose size is the day's tabs. The
/// tabs are read by hand, in exactly the form the writer and the encoder
/// give them (`TabsReader`); the rest of the checkpoint is decoded by
/// `JSONDecoder` with an empty tabs slice in their place. Bytes in any other
/// form (whitespace, other escapes, another key order, the tabs' key found
/// more than once) are left to `JSONDecoder` whole: reading by hand is a
/// shortcut, never a second dialect. `CheckpointEncodingTests` compares both
/// readings over random days.
extension KioskCheckpoint: JournalDecodable {
  /// Where the tabs slice begins: its key and the start of its first field.
  static let tabsStart = Array(#""tabs":{"nextID":"#.utf8)

  public static func readJournal(_ bytes: ArraySlice<UInt8>) -> KioskCheckpoint? {
    var start = JournalJSONReader(bytes)
    guard start.literal(#"{"day":"#), start.int() != nil, start.literal(#","format":"#) else {
      // No format: format 2's form (or bytes in no writer's form, which the decoder then refuses).
      return try? decodingFormat2(bytes)
    }
    let found = occurrences(of: [tabsStart, undoStart], in: bytes)
    guard found[0].count == 1, let at = found[0].first else { return nil }
    let valueStart = at + 7  // after `"tabs":`
    var reader = JournalJSONReader(bytes, at: valueStart)
    guard let tabs = reader.tabs() else { return nil }
    var light = Array(bytes[..<valueStart])
    light.append(contentsOf: #"{"nextID":1,"open":[],"settled":{"count":0,"total":0}}"#.utf8)
    // The undo history, which sorts after the state, is read by hand too when
    // its key is found once and its entries are in the encoder's exact form.
    var undo: [UndoHistory.Entry]?
    if found[1].count == 1, let undoAt = found[1].first, undoAt >= reader.index {
      var undoReader = JournalJSONReader(bytes, at: undoAt + undoStart.count)
      if let entries = undoReader.undoEntries() {
        undo = entries
        light.append(contentsOf: bytes[reader.index..<(undoAt + undoStart.count)])
        light.append(contentsOf: "[]".utf8)
        reader.index = undoReader.index
      }
    }
    light.append(contentsOf: bytes[reader.index...])
    guard var checkpoint = try? JSONDecoder().decode(KioskCheckpoint.self, from: Data(light)) else { return nil }
    checkpoint.state.tabs = tabs
    if let undo { checkpoint.undo = undo }
    return checkpoint
  }

  /// A checkpoint in the format its own `format` field names, when its
  /// journal's version holds that format: 4 (the canonical form) and 3 in a
  /// journal of version 3, 3 and 2 (no `format`) in one of version 1 or 2.
  /// The field is read from the bytes as written, or by the decoder when they
  /// are not, so a checkpoint spelled otherwise is refused for what is wrong
  /// with it, never misread as another format. The bytes decoded last are
  /// decoded once (`LastDecodedCheckpoint`).
  public static func decoded(from bytes: ArraySlice<UInt8>, version: UInt16, decoder: JSONDecoder) throws
    -> KioskCheckpoint
  {
    if let checkpoint = LastDecodedCheckpoint.checkpoint(for: bytes, version: version) { return checkpoint }
    let checkpoint = try decodedAfresh(from: bytes, version: version, decoder: decoder)
    LastDecodedCheckpoint.keep(checkpoint, decodedFrom: bytes, version: version)
    return checkpoint
  }

  /// `decoded(from:version:decoder:)`, from the bytes themselves.
  static func decodedAfresh(from bytes: ArraySlice<UInt8>, version: UInt16, decoder: JSONDecoder) throws
    -> KioskCheckpoint
  {
    let canonicalJournal = version >= JournalFormat.canonicalVersion
    if canonicalJournal, isCanonical(bytes) { return try readCanonical(bytes) }
    switch try declaredFormat(bytes) {
    case canonicalFormat? where canonicalJournal: return try readCanonical(bytes)
    case currentFormat?: return try decoded(from: bytes, decoder: decoder)
    case nil where !canonicalJournal: return try decoded(from: bytes, decoder: decoder)
    case let format: throw FormatRefused(format: format, version: version)
    }
  }

  /// The checkpoint's `format` (nil in format 2, which had none): read by hand
  /// from `{"day":N,"format":F`, as every writer writes it, or by the decoder.
  static func declaredFormat(_ bytes: ArraySlice<UInt8>) throws -> Int? {
    var reader = JournalJSONReader(bytes)
    if reader.literal(#"{"day":"#), reader.int() != nil, reader.literal(#","format":"#), let format = reader.int() {
      return format
    }
    return try JSONDecoder().decode(DeclaredFormat.self, from: Data(bytes)).format
  }

  /// Only the `format` field of a checkpoint.
  private struct DeclaredFormat: Decodable {
    var format: Int?
  }

  /// A checkpoint whose format its journal's version does not hold, or that no kiosk wrote.
  struct FormatRefused: Error, CustomStringConvertible {
    var format: Int?
    var version: UInt16

    var description: String {
      let named = format.map { "a checkpoint of format \($0)" } ?? "a checkpoint of format 2 (no 'format' field)"
      guard let format, !(2...KioskCheckpoint.canonicalFormat).contains(format) else {
        let held = version >= JournalFormat.canonicalVersion ? "3 and 4" : "2 and 3"
        return "\(named) in a journal of version \(version), which holds checkpoints of formats \(held)"
      }
      return "\(named): this kiosk reads checkpoint formats 2 to \(KioskCheckpoint.canonicalFormat)"
    }
  }

  /// Where the undo history begins: its key.
  static let undoStart = Array(#""undo":"#.utf8)
}

/// Reads a tabs slice written as `TabsState.writeJournal` writes it, and
/// nothing else: `{"nextID":N,"open":[{"raw":I},{"customer":"…","lines":[{"raw":L},…]},…],"settled":{"count":C,"total":T}}`,
/// no whitespace, strings with the encoder's escapes. Nil on anything else.
extension JournalJSONReader {
  mutating func tabs() -> TabsState? {
    guard literal(#"{"nextID":"#), let nextID = int(), literal(#","open":["#) else { return nil }
    var open: [Tab.ID: Tab] = [:]
    if !literal("]") {
      repeat {
        guard let id = rawID(), literal(","), let tab = tab(), open.updateValue(tab, forKey: Tab.ID(raw: id)) == nil
        else { return nil }
      } while literal(",")
      guard literal("]") else { return nil }
    }
    guard literal(#","settled":{"count":"#), let count = int(), literal(#","total":"#), let total = decimal(),
      literal("}}")
    else { return nil }
    return TabsState(open: open, nextID: nextID, settled: SettledTabs(count: count, total: total))
  }
}
