import Clock
import Journal
import Menu
import Payment
import Stock
import Tabs

/// Every slice and resource in one value: the slices, the local processor
/// with its durable ledger, and a journal, as the integration tests compose
/// the domains (`KioskWorldTests`). `kiosk` itself builds no `KioskWorld`:
/// it steps over `ReplayWorld`, the slices alone, inside the durable store
/// (`KioskTill`), which holds the journal and reaches the processor through
/// journaled intents.
///
/// Its capabilities and links are generated from codegen.yaml into
/// `Generated/KioskApp/KioskWorld+Links.swift`: that file is the link map.
/// Stored slices witness the capabilities in place; the journal sits in a
/// `UniqueBox`, so the world is `~Copyable` and snapshots go through the slices.
public struct KioskWorld: ~Copyable {
  /// The menu slice.
  public var menu: MenuState
  /// The tabs slice.
  public var tabs: TabsState
  /// The stock slice.
  public var stock: StockState
  /// The payment processor and its ledger, demanded by `LinkLocalPayment`. Not in snapshots.
  public var processor: LocalProcessor
  // linkgen:KioskWorld-storage-end (`linkgen new-domain NAME --world KioskWorld` declares new slices above)

  private let journalBox: UniqueBox<DurableJournal>

  /// The journal resource, reached in place through the box.
  public var journal: DurableJournal {
    _read { yield journalBox.value }
    _modify { yield &journalBox.value }
  }

  /// A world with the given slices, appending to `journal`.
  public init(
    menu: MenuState = MenuState(), tabs: TabsState = TabsState(), stock: StockState = StockState(),
    processor: consuming LocalProcessor, journal: consuming DurableJournal
  ) {
    self.menu = menu
    self.tabs = tabs
    self.stock = stock
    self.processor = processor
    self.journalBox = UniqueBox(journal)
  }
}
