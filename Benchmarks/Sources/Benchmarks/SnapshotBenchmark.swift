import Foundation
import KioskApp
import Menu
import Stock
import Tabs

/// `snapshot` + a one-slice write + `restore`, on menus of growing size.
///
/// Copy-on-write prices a snapshot at O(changed slices): the menu is never
/// written, so its size should not matter.
enum SnapshotBenchmark {
  static func run(sizes: [Int], iterations: Int) -> String {
    var rows: [[String]] = []
    var first: Double?
    for size in sizes {
      var menu = MenuState()
      for raw in 1...size {
        menu.items[Item.ID(raw: raw)] = Item(name: "Item \(raw)", price: 1, recipe: [.cup: 1])
      }
      var world = ReplayWorld()
      world.menu = menu
      world.stock = StockState(units: [.cup: 10])
      let result = measure(iterations: iterations, repeats: 5) { count in
        for _ in 0..<count {
          let checkpoint = world.snapshot
          world.stock.units[.cup, default: 0] += 1  // the command's write: one small slice
          world.restore(checkpoint)
        }
      }
      blackHole(world.stock)
      first = first ?? result.nanoseconds
      rows.append([
        format(Double(size), decimals: 0), format(result.nanoseconds), format(result.nanoseconds / first!, decimals: 2),
      ])
    }
    return markdownTable(["menu items", "ns per snapshot + write + restore", "ratio to the smallest"], rows)
  }
}
