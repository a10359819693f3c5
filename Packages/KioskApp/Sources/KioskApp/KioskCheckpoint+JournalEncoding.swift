import Journal
import KioskCommands
import Tabs

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A checkpoint writes its own journal bytes: the same `JSONEncoder` (sorted
/// keys) writes, at a fraction of the cost. Its size is the day's tabs; the
/// rest (menu, stock, undo history, intents) is small. So the encoder writes
/// the checkpoint with an empty placeholder in place of the tabs slice, and the
/// writer puts the tabs in the placeholder's place, by hand. Whatever else the
/// snapshot holds (a slice `new-domain` adds) is the encoder's, as before. When
/// the placeholder is not found exactly once, the encoder writes it all.
/// `CheckpointEncodingTests` compares the bytes with the encoder's.
extension KioskCheckpoint: JournalEncodable {
  /// The tabs slice the encoder writes in place of the real one: its `nextID`,
  /// which no till issues, makes its bytes unique in the checkpoint.
  static let placeholder = TabsState(open: [:], nextID: -7_254_311_089)

  /// `"tabs":` and the placeholder, as the encoder writes them.
  static let placeholderBytes = Array(#""tabs":{"nextID":-7254311089,"open":[],"settled":{"count":0,"total":0}}"#.utf8)

  public func writeJournal(to writer: inout JournalJSONWriter) -> Bool {
    // A journal of format 3: the canonical form (format 4), unless a slice has none.
    if writer.canonical, let bytes = canonicalBytes() {
      writer.raw(bytes)
      return true
    }
    var light = self
    light.state.tabs = Self.placeholder
    guard let bytes = try? Array(JournalJSONWriter.makeEncoder().encode(light)) else { return false }
    guard let checkpoint = Self.replacingPlaceholder(in: bytes, with: state.tabs, escapingSlashes: true) else {
      return false
    }
    writer.raw(checkpoint)
    return true
  }

  /// `bytes` (an encoder's, with `placeholder` for the tabs slice) with `tabs`
  /// written by hand in the placeholder's place: the encoder's bytes up to
  /// `"tabs":` (its comma included), the tabs, then the rest. Nil when the
  /// placeholder is not there exactly once. `escapingSlashes` as the encoder
  /// that wrote `bytes` (the journal's does, the canonical one does not).
  static func replacingPlaceholder(in bytes: [UInt8], with tabs: TabsState, escapingSlashes: Bool) -> [UInt8]? {
    let found = occurrences(of: placeholderBytes, in: bytes[...])
    guard found.count == 1, let at = found.first else { return nil }
    var writer = JournalJSONWriter()
    writer.escapesSlashes = escapingSlashes
    tabs.writeJournal(to: &writer)
    var spliced = Array(bytes[..<at])
    spliced.reserveCapacity(bytes.count + writer.bytes.count)
    spliced.append(contentsOf: #""tabs":"#.utf8)
    spliced.append(contentsOf: writer.bytes)
    spliced.append(contentsOf: bytes[(at + placeholderBytes.count)...])
    return spliced
  }

  /// Where `pattern` starts in `bytes`, each time.
  static func occurrences(of pattern: [UInt8], in bytes: ArraySlice<UInt8>) -> [Int] {
    occurrences(of: [pattern], in: bytes)[0]
  }

  /// Where each of `patterns` starts in `bytes`, each time, in one pass over
  /// the bytes (a checkpoint's are its whole state); an empty pattern is never found.
  static func occurrences(of patterns: [[UInt8]], in bytes: ArraySlice<UInt8>) -> [[Int]] {
    var found = [[Int]](repeating: [], count: patterns.count)
    var startsAPattern = [Bool](repeating: false, count: 256)
    for case let first? in patterns.map(\.first) { startsAPattern[Int(first)] = true }
    bytes.withUnsafeBufferPointer { buffer in
      for offset in buffer.indices where startsAPattern[Int(buffer[offset])] {
        for (number, pattern) in patterns.enumerated()
        where !pattern.isEmpty && pattern.count <= buffer.count - offset
          && UnsafeBufferPointer(rebasing: buffer[offset..<(offset + pattern.count)]).elementsEqual(pattern)
        {
          found[number].append(bytes.startIndex + offset)
        }
      }
    }
    return found
  }
}

extension TabsState {
  /// Writes the slice as its `encode(to:)` writes it through `JSONEncoder`:
  /// `nextID`, then every open tab in id order as id, tab, id, tab…, then
  /// the count of the settled ones.
  func writeJournal(to writer: inout JournalJSONWriter) {
    writer.beginObject()
    writer.key("nextID")
    writer.int(nextID)
    writer.key("open")
    writer.beginArray()
    if let (lowest, places) = placesByID() {
      // The tabs in the dictionary's order; `places` says where each id's is.
      // (A table of the tabs themselves, `[Tab?]`, measured 3% dearer a checkpoint.)
      let tabs = Array(open.values)
      for (offset, place) in places.enumerated() where place >= 0 {
        writer.rawID(lowest + offset)
        writer.tab(tabs[Int(place)])
      }
    } else {
      // Sorting numbers with where each tab is, then reading it there, is a
      // fraction of sorting the (id, tab) pairs, whose moves retain and
      // release each tab, and of hashing each id again to look its tab up.
      var order = open.indices.map { (raw: open[$0].key.raw, index: $0) }
      order.sort { $0.raw < $1.raw }
      for (raw, index) in order {
        writer.rawID(raw)
        writer.tab(open[index].value)
      }
    }
    writer.endArray()
    writer.key("settled")
    writer.beginObject()
    writer.key("count")
    writer.int(settled.count)
    writer.key("total")
    writer.decimal(settled.total)
    writer.endObject()
    writer.endObject()
  }

  /// A table from id to the tab's place in the dictionary's order (-1 where
  /// no tab has that id), from the lowest open id on: the ids in order with
  /// no sort. A till issues ids one after another, so they span little more
  /// than the open tabs do, and a sort was a tenth of a checkpoint. Nil when
  /// they span more than 16 times their number plus 1,024, so the table is
  /// never much larger than the tabs.
  func placesByID() -> (lowest: Int, places: [Int32])? {
    guard var lowest = open.first?.key.raw, open.count < Int32.max else { return nil }
    var highest = lowest
    for id in open.keys {
      lowest = min(lowest, id.raw)
      highest = max(highest, id.raw)
    }
    let (span, overflow) = highest.subtractingReportingOverflow(lowest)
    guard !overflow, span < 16 * open.count + 1_024 else { return nil }
    var places = [Int32](repeating: -1, count: span + 1)
    for (place, id) in open.keys.enumerated() { places[id.raw - lowest] = Int32(place) }
    return (lowest, places)
  }
}
