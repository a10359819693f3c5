import Foundation
import KioskApp
import Menu
import Tabs
import Testing

/// The hand-written canonical bytes are `canonicalJSON()`'s, byte for byte, over
/// random tabs whose customers' names hold every character the two encoders
/// could treat differently (`/`, which the canonical form leaves unescaped,
/// quotes, backslashes, control characters, text beyond ASCII), beside the
/// default menu and stock. Fresh values each run; a failure prints the state.
@MainActor
@Test func canonicalJSONByHandIsTheEncodersBytes() async throws {
  let journal = try TemporaryJournal()
  var snapshot = try await journal.openTill().snapshot
  #expect(!snapshot.menu.items.isEmpty, "the default menu is part of the state compared")
  var random = SystemRandomNumberGenerator()
  let alphabet: [Unicode.Scalar] =
    (0..<0x20).map { Unicode.Scalar(UInt8($0)) } + ["\"", "\\", "/", "/", "a", "Z", " ", "é", "€", "😀", "\u{2028}"]
  for _ in 0..<300 {
    var open: [Tab.ID: Tab] = [:]
    for _ in 0..<Int.random(in: 0...25, using: &random) {
      var name = String.UnicodeScalarView()
      for _ in 0..<Int.random(in: 0...10, using: &random) { name.append(alphabet.randomElement(using: &random)!) }
      let lines = (0..<Int.random(in: 0...6, using: &random)).map { _ in
        Item.ID(raw: Int.random(in: 1...9, using: &random))
      }
      open[Tab.ID(raw: Int.random(in: -5...100_000, using: &random))] = Tab(customer: String(name), lines: lines)
    }
    let settled = SettledTabs(
      count: Int.random(in: 0...1_000, using: &random),
      total: Decimal(Int.random(in: 0...1_000_000, using: &random)) / 100)
    snapshot.tabs = TabsState(open: open, nextID: Int.random(in: 1...100_001, using: &random), settled: settled)
    let byHand = snapshot.canonicalJSONWrittenByHand()
    let encoders = snapshot.canonicalJSON()
    #expect(
      byHand == encoders,
      "\(String(decoding: byHand, as: UTF8.self)) against \(String(decoding: encoders, as: UTF8.self))")
  }
}

/// A checkpoint written before a slice was added to the world holds no such
/// key: the slice reads as empty (what `linkgen new-domain` relies on for a
/// till that already has a journal), and the others as they were.
@Test func aSnapshotWithoutASliceReadsItAsEmpty() async throws {
  let full = KioskSnapshot(menu: KioskDefaults.menu, stock: KioskDefaults.stock)
  var object = try #require(try JSONSerialization.jsonObject(with: Data(full.canonicalJSON())) as? [String: Any])
  object["stock"] = nil
  let decoded = try JSONDecoder().decode(
    KioskSnapshot.self, from: JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
  #expect(decoded == KioskSnapshot(menu: KioskDefaults.menu))
}

/// The tabs are written in id order whichever way the writer orders them: ids
/// that span little more than their number, as a till's do, negative ones
/// included (a table from id to tab), and ids spread far apart or at the ends
/// of `Int` (a sort) all give the encoder's bytes, with the tabs in id order.
@MainActor
@Test func tabsAreWrittenInIdOrderWhateverTheirIds() async throws {
  let journal = try TemporaryJournal()
  var snapshot = try await journal.openTill().snapshot
  let idSets: [[Int]] = [
    Array(1...300).shuffled(), [7, 3, 5], [4, -2, 9, 0], [Int.max / 2, 1, Int.max / 3], [Int.max, 2], [Int.min, 5],
  ]
  for ids in idSets {
    var open: [Tab.ID: Tab] = [:]
    for id in ids { open[Tab.ID(raw: id)] = Tab(customer: "Guest \(id)", lines: [Item.ID(raw: 1)]) }
    snapshot.tabs = TabsState(open: open, nextID: 301, settled: SettledTabs())
    let text = String(decoding: snapshot.canonicalJSONWrittenByHand(), as: UTF8.self)
    #expect(text == String(decoding: snapshot.canonicalJSON(), as: UTF8.self), "ids \(ids.prefix(8))")
    let positions = ids.sorted().map { text.range(of: "\"Guest \($0)\"")!.lowerBound }
    #expect(positions == positions.sorted(), "ids \(ids.prefix(8)) are written in id order")
  }
}
