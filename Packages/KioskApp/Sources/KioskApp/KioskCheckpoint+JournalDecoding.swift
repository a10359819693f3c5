import Foundation
import Journal
import KioskCommands
import Menu
import Tabs

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

  /// A checkpoint of format 4 (the canonical form) in a journal of format 3;
  /// one of format 3 or 2, in any journal, as above.
  public static func decoded(from bytes: ArraySlice<UInt8>, version: UInt16, decoder: JSONDecoder) throws
    -> KioskCheckpoint
  {
    guard version >= JournalFormat.canonicalVersion, isCanonical(bytes) else {
      return try decoded(from: bytes, decoder: decoder)
    }
    return try readCanonical(bytes)
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
