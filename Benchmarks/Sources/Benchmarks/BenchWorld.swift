import Foundation
import Menu
import Payment
import Stock
import Tabs

/// The real domain code over plain slices, the mock gateway and a frozen clock.
/// Its capabilities and links are generated (`Generated/Benchmarks/BenchWorld+Links.swift`).
struct BenchWorld {
  var menu: MenuState
  var tabs = TabsState()
  var stock: StockState
  // linkgen:BenchWorld-storage-end (`linkgen new-domain NAME --world …` declares new slices above)
  let frozenNow = Date(timeIntervalSince1970: 1_750_000_000)
}

/// A distinct idempotency key per tab, as the kiosk's journal would give.
func key(for tab: Tab.ID) -> IdempotencyKey { IdempotencyKey("k_tab_\(tab.raw)") }
