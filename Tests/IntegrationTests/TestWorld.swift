import Foundation
import HeadOffice
import Journal
import KioskApp
import Menu
import Payment
import Stock
import Tabs

/// The test world: the mock gateway, a frozen clock, a journal in a throwaway
/// file, and the real head office database (the seed's "real database, mock
/// payment"): a test that ships a day sets its connection string. `snapshot` and `restore` come from KioskApp, generic over the slices. Its conformances (the link map) are generated from codegen.yaml into
/// `Generated/IntegrationTests/TestWorld+Links.swift`.
struct TestWorld: ~Copyable {
  var menu = MenuState()
  var tabs = TabsState()
  var stock = StockState()
  /// The head office's database link; none configured until a test points it at a server.
  var headOfficeDatabase = PostgresHeadOffice(conninfo: nil)
  // linkgen:TestWorld-storage-end (`linkgen new-domain NAME --world …` declares new slices above)
  let frozenNow = Date(timeIntervalSince1970: 1_750_000_000)

  private let journalBox: UniqueBox<DurableJournal>
  var journal: DurableJournal {
    _read { yield journalBox.value }
    _modify { yield &journalBox.value }
  }

  /// The journal file, removed by `deinit`.
  let journalPath: String

  init() {
    journalPath =
      FileManager.default.temporaryDirectory
      .appendingPathComponent("testworld-\(UUID().uuidString).journal").path
    journalBox = UniqueBox(try! DurableJournal(path: journalPath))
  }

  deinit { try? FileManager.default.removeItem(atPath: journalPath) }
}

/// A distinct idempotency key per tab, as the kiosk's journal would give.
func key(for tab: Tab.ID) -> IdempotencyKey { IdempotencyKey("k_tab_\(tab.raw)") }
