import Menu
import Stock
import Tabs

/// The slices alone: what replaying or verifying a journal needs. No gateway,
/// no clock, no file, so replay cannot reach an external effect even by mistake.
/// Its conformances are generated (`Generated/KioskApp/ReplayWorld+Links.swift`).
public struct ReplayWorld {
  /// The menu slice.
  public var menu = MenuState()
  /// The tabs slice.
  public var tabs = TabsState()
  /// The stock slice.
  public var stock = StockState()
  // linkgen:ReplayWorld-storage-end (`linkgen new-domain NAME --world KioskWorld` declares new slices above)

  /// An empty world.
  public init() {}
}
