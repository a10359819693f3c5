import Foundation
import Journal
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
    let found = occurrences(of: tabsStart, in: bytes)
    guard found.count == 1, let at = found.first else { return nil }
    let valueStart = at + 7  // after `"tabs":`
    var reader = TabsReader(bytes: bytes, index: valueStart)
    guard let tabs = reader.tabs() else { return nil }
    var light = Array(bytes[..<valueStart])
    light.append(contentsOf: #"{"nextID":1,"open":[]}"#.utf8)
    light.append(contentsOf: bytes[reader.index...])
    guard var checkpoint = try? JSONDecoder().decode(KioskCheckpoint.self, from: Data(light)) else { return nil }
    checkpoint.state.tabs = tabs
    return checkpoint
  }
}

/// Reads a tabs slice written as `TabsState.writeJournal` writes it, and
/// nothing else: `{"nextID":N,"open":[{"raw":I},{"customer":"…","lines":[{"raw":L},…],"settled":B},…]}`,
/// no whitespace, strings with the encoder's escapes. Nil on anything else.
struct TabsReader {
  /// The bytes; indices are theirs (a slice's start need not be 0).
  let bytes: ArraySlice<UInt8>
  /// The next byte to read.
  var index: Int

  mutating func tabs() -> TabsState? {
    guard literal(#"{"nextID":"#), let nextID = int(), literal(#","open":["#) else { return nil }
    var open: [Tab.ID: Tab] = [:]
    if !literal("]") {
      repeat {
        guard literal(#"{"raw":"#), let id = int(), literal(#"},{"customer":"#), let customer = string(),
          literal(#","lines":["#)
        else { return nil }
        var lines: [Item.ID] = []
        if !literal("]") {
          repeat {
            guard literal(#"{"raw":"#), let line = int(), literal("}") else { return nil }
            lines.append(Item.ID(raw: line))
          } while literal(",")
          guard literal("]") else { return nil }
        }
        guard literal(#","settled":"#) else { return nil }
        let settled: Bool
        if literal("true") {
          settled = true
        } else if literal("false") {
          settled = false
        } else {
          return nil
        }
        guard literal("}"),
          open.updateValue(Tab(customer: customer, lines: lines, settled: settled), forKey: Tab.ID(raw: id)) == nil
        else { return nil }
      } while literal(",")
      guard literal("]") else { return nil }
    }
    guard literal("}") else { return nil }
    return TabsState(open: open, nextID: nextID)
  }

  /// Reads `text` when it comes next.
  mutating func literal(_ text: StaticString) -> Bool {
    let count = text.utf8CodeUnitCount
    guard index + count <= bytes.endIndex else { return false }
    let matches = text.withUTF8Buffer { expected in
      expected.indices.allSatisfy { bytes[index + $0] == expected[$0] }
    }
    if matches { index += count }
    return matches
  }

  /// An integer as the encoder writes one: an optional minus, digits, no leading zero.
  mutating func int() -> Int? {
    var cursor = index
    let negative = cursor < bytes.endIndex && bytes[cursor] == UInt8(ascii: "-")
    if negative { cursor += 1 }
    let digitsStart = cursor
    var magnitude = 0
    while cursor < bytes.endIndex, bytes[cursor] >= UInt8(ascii: "0"), bytes[cursor] <= UInt8(ascii: "9") {
      let (times, overflow) = magnitude.multipliedReportingOverflow(by: 10)
      let (sum, overflow2) = times.addingReportingOverflow(Int(bytes[cursor] - UInt8(ascii: "0")))
      guard !overflow, !overflow2 else { return nil }
      magnitude = sum
      cursor += 1
    }
    let digits = cursor - digitsStart
    guard digits > 0, digits == 1 || bytes[digitsStart] != UInt8(ascii: "0") else { return nil }
    index = cursor
    return negative ? -magnitude : magnitude
  }

  /// A string as the encoder writes one: UTF-8, with `\"`, `\\`, `\/`, `\b`,
  /// `\f`, `\n`, `\r`, `\t` and `\u00XX` (a control character) escaped.
  mutating func string() -> String? {
    guard index < bytes.endIndex, bytes[index] == UInt8(ascii: "\"") else { return nil }
    // Most names have no escape: the bytes up to the closing quote are the
    // text, made a `String` in one step (ASCII needs no validation).
    var end = index + 1
    var ascii = true
    while end < bytes.endIndex, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"), bytes[end] >= 0x20 {
      ascii = ascii && bytes[end] < 0x80
      end += 1
    }
    if end < bytes.endIndex, bytes[end] == UInt8(ascii: "\"") {
      let decoded = bytes[(index + 1)..<end].withUnsafeBufferPointer { text in
        ascii ? String(decoding: text, as: UTF8.self) : String(validating: text, as: UTF8.self)
      }
      guard let decoded else { return nil }
      index = end + 1
      return decoded
    }
    var cursor = index + 1
    var text: [UInt8] = []
    while cursor < bytes.endIndex {
      let byte = bytes[cursor]
      if byte == UInt8(ascii: "\"") {
        guard let decoded = String(validating: text, as: UTF8.self) else { return nil }
        index = cursor + 1
        return decoded
      }
      guard byte >= 0x20 else { return nil }
      if byte != UInt8(ascii: "\\") {
        text.append(byte)
        cursor += 1
        continue
      }
      guard cursor + 1 < bytes.endIndex else { return nil }
      switch bytes[cursor + 1] {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(bytes[cursor + 1])
      case UInt8(ascii: "b"): text.append(0x08)
      case UInt8(ascii: "f"): text.append(0x0C)
      case UInt8(ascii: "n"): text.append(0x0A)
      case UInt8(ascii: "r"): text.append(0x0D)
      case UInt8(ascii: "t"): text.append(0x09)
      case UInt8(ascii: "u"):
        // Only the encoder's `\u00XX`, for a control character.
        guard cursor + 5 < bytes.endIndex, bytes[cursor + 2] == UInt8(ascii: "0"),
          bytes[cursor + 3] == UInt8(ascii: "0"),
          let high = Self.hex(bytes[cursor + 4]), let low = Self.hex(bytes[cursor + 5]), high < 2
        else { return nil }
        text.append(high << 4 | low)
        cursor += 6
        continue
      default: return nil
      }
      cursor += 2
    }
    return nil
  }

  private static func hex(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    default: nil
    }
  }
}
