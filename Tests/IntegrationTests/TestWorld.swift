import Foundation
import Journal
import KioskApp
import Menu
import Payment
import Stock
import Tabs

/// The test world: the mock gateway, a frozen clock, a journal in a throwaway
/// file. Its conformances (the link map) are generated from codegen.yaml into
/// `Generated/IntegrationTests/TestWorld+Links.swift`.
struct TestWorld: ~Copyable {
  var menu = MenuState()
  var tabs = TabsState()
  var stock = StockState()
  let frozenNow = Date(timeIntervalSince1970: 1_750_000_000)

  private let journalBox: UniqueBox<WriteAheadLog>
  var journal: WriteAheadLog {
    read { yield journalBox.value }
    modify { yield &journalBox.value }
  }

  /// The journal file, removed by `deinit`.
  let journalPath: String

  init() {
    journalPath =
      FileManager.default.temporaryDirectory
      .appendingPathComponent("testworld-\(UUID().uuidString).journal").path
    journalBox = UniqueBox(try! WriteAheadLog(path: journalPath))
  }

  deinit { try? FileManager.default.removeItem(atPath: journalPath) }

  var snapshot: KioskSnapshot { KioskSnapshot(menu: menu, tabs: tabs, stock: stock) }

  mutating func restore(_ snapshot: KioskSnapshot) {
    (menu, tabs, stock) = (snapshot.menu, snapshot.tabs, snapshot.stock)
  }
}
