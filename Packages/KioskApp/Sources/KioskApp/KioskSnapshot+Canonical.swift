import Foundation
import Journal
import Menu
import Stock
import Tabs

extension KioskSnapshot {
  /// The snapshot as bytes that depend only on its value: every dictionary
  /// sorted by key, decimals as their shortest text. Two equal snapshots give
  /// the same bytes in any process (dictionary order does not leak in).
  public func canonicalJSON() -> [UInt8] {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    // Encoding plain arrays, strings and integers cannot fail.
    return Array(try! encoder.encode(CanonicalSnapshot(self)))
  }

  /// A short fingerprint of `canonicalJSON()`: `crc32c:` and eight hex digits.
  public var digest: String {
    let crc = CRC32C.checksum(canonicalJSON())
    return "crc32c:" + String(format: "%08x", crc)
  }
}

/// `KioskSnapshot` with its dictionaries as sorted arrays.
private struct CanonicalSnapshot: Encodable {
  struct MenuItem: Encodable {
    var id: Int
    var name: String
    var price: String
    var recipe: [Units]
  }
  struct Units: Encodable {
    var ingredient: String
    var units: Int
  }
  struct TabEntry: Encodable {
    var id: Int
    var customer: String
    var lines: [Int]
    var settled: Bool
  }

  var menu: [MenuItem]
  var tabs: [TabEntry]
  var nextTab: Int
  var stock: [Units]

  init(_ snapshot: KioskSnapshot) {
    menu = snapshot.menu.items.sorted { $0.key < $1.key }.map { id, item in
      MenuItem(id: id.raw, name: item.name, price: "\(item.price)", recipe: Self.units(item.recipe))
    }
    tabs = snapshot.tabs.open.sorted { $0.key < $1.key }.map { id, tab in
      TabEntry(id: id.raw, customer: tab.customer, lines: tab.lines.map(\.raw), settled: tab.settled)
    }
    nextTab = snapshot.tabs.nextID
    stock = Self.units(snapshot.stock.units)
  }

  static func units(_ counts: [Ingredient: Int]) -> [Units] {
    counts.sorted { $0.key.rawValue < $1.key.rawValue }.map { Units(ingredient: $0.key.rawValue, units: $0.value) }
  }
}
