import CanonicalJSON
import Journal
import KioskCommands
import Menu
import Tabs

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension TabsState {
  /// Writes the slice's canonical form by hand, the bytes `canonical.compactText` gives:
  /// `{"nextID":N,"open":{"<id>":{"customer":"…","lines":[I,…]},…},"settled":{"count":C,"total":T}}`,
  /// the open tabs keyed by their ids' digits, so in the order of those digits
  /// (`"10"` before `"9"`). A till's ids are dense, so they are walked in that
  /// order through the id table, with no sort; ids spread wide are sorted.
  /// The caller checks first that the canonical form holds the total (`KioskCheckpoint.canonicalHolds`).
  func writeCanonical(to writer: inout JournalJSONWriter) {
    writer.beginObject()
    writer.key("nextID")
    writer.int(nextID)
    writer.key("open")
    writer.beginObject()
    if let (lowest, places) = placesByID(), let highest = open.keys.map(\.raw).max(),
      highest < 32 * open.count + 4_096
    {
      let tabs = Array(open.values)
      Self.inDigitOrder(upTo: highest) { id in
        guard id >= lowest else { return }
        let place = places[id - lowest]
        if place >= 0 { Self.writeCanonical(id, tabs[Int(place)], to: &writer) }
      }
    } else {
      var order = open.indices.map { (raw: open[$0].key.raw, index: $0) }
      order.sort { Self.digitsPrecede($0.raw, $1.raw) }
      for (raw, index) in order { Self.writeCanonical(raw, open[index].value, to: &writer) }
    }
    writer.endObject()
    writer.key("settled")
    writer.beginObject()
    writer.key("count")
    writer.int(settled.count)
    writer.key("total")
    writer.int(KioskRecord.minorUnits(settled.total) ?? 0)  // checked by the caller
    writer.endObject()
    writer.endObject()
  }

  /// `"<id>":{"customer":"…","lines":[…]}`.
  private static func writeCanonical(_ id: Int, _ tab: Tab, to writer: inout JournalJSONWriter) {
    writer.key(digitsOf: id)
    writer.beginObject()
    writer.key("customer")
    writer.string(tab.customer)
    writer.key("lines")
    writer.beginArray()
    for line in tab.lines { writer.int(line.raw) }
    writer.endArray()
    writer.endObject()
  }

  /// Calls `body` with 1 through `highest` in the order of their decimal
  /// digits, as strings sort: 1, 10, 100, …, 11, 12, …, 2, 20, ….
  static func inDigitOrder(upTo highest: Int, _ body: (Int) -> Void) {
    guard highest >= 1 else { return }
    var current = 1
    for _ in 0..<highest {
      body(current)
      if current <= highest / 10 {
        current *= 10
      } else {
        if current >= highest { current /= 10 }
        current += 1
        while current % 10 == 0 { current /= 10 }
      }
    }
  }

  /// Whether the digits of `left` sort before those of `right` (positive numbers).
  static func digitsPrecede(_ left: Int, _ right: Int) -> Bool {
    var (a, b) = (left, right)
    var (digitsA, digitsB) = (1, 1)
    var power = 10
    while power <= a && power <= Int.max / 10 {
      digitsA += 1
      power *= 10
    }
    power = 10
    while power <= b && power <= Int.max / 10 {
      digitsB += 1
      power *= 10
    }
    // Pad the shorter with zeros: equal then means one is a prefix of the other, and the shorter sorts first.
    while digitsA < digitsB {
      a *= 10
      digitsA += 1
    }
    while digitsB < digitsA {
      b *= 10
      digitsB += 1
    }
    return a != b ? a < b : left < right
  }
}

extension JournalJSONReader {
  /// A tabs slice exactly as `writeCanonical` writes it, checked as
  /// `TabsState(canonical:)` checks one; nil on anything else (the parser's then).
  mutating func canonicalTabs() -> TabsState? {
    guard literal(#"{"nextID":"#), let nextID = int(), literal(#","open":{"#) else { return nil }
    var open: [Tab.ID: Tab] = [:]
    var highest = 0
    if !literal("}") {
      repeat {
        guard literal("\""), let id = int(), (1...1_000_000_000).contains(id), literal(#"":{"customer":"#),
          let customer = string(), literal(#","lines":["#)
        else { return nil }
        var lines: [Item.ID] = []
        if !literal("]") {
          repeat {
            guard let line = int(), (1...1_000_000_000).contains(line), lines.count < Tab.maxLines else { return nil }
            lines.append(Item.ID(raw: line))
          } while literal(",")
          guard literal("]") else { return nil }
        }
        guard literal("}"), open.updateValue(Tab(customer: customer, lines: lines), forKey: Tab.ID(raw: id)) == nil
        else { return nil }
        highest = max(highest, id)
      } while literal(",")
      guard literal("}") else { return nil }
    }
    guard literal(#","settled":{"count":"#), !literal("-"), let count = int(), literal(#","total":"#),
      !literal("-"), let units = int(), units < CanonicalMoney.limit, literal("}}"),
      // As `TabsState(canonical:)` checks them.
      nextID > highest, nextID >= 1, nextID <= 1_000_000_000, count <= nextID - 1 - open.count
    else { return nil }
    return TabsState(
      open: open, nextID: nextID, settled: SettledTabs(count: count, total: CanonicalMoney.amount(minorUnits: units)))
  }
}
