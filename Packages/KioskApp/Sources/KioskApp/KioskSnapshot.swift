import Menu
import Stock
import Tabs

/// The state of the kiosk: the copyable slices, and nothing else.
///
/// The payment session is deliberately left out: gateway state is not domain
/// truth, and restoring an old nonce would desynchronize us from the processor.
public struct KioskSnapshot: Codable, Equatable, Sendable {
  /// The menu slice.
  public var menu: MenuState
  /// The tabs slice.
  public var tabs: TabsState
  /// The stock slice.
  public var stock: StockState

  /// Creates a snapshot from literal slices (the "given" of a test).
  public init(menu: MenuState, tabs: TabsState, stock: StockState) {
    self.menu = menu
    self.tabs = tabs
    self.stock = stock
  }
}

extension HasMutableTabs where Self: HasMutableMenu & HasMutableStock & ~Copyable {
  /// The slices, copied by assignment: O(1) until one of them is next written.
  public var snapshot: KioskSnapshot {
    KioskSnapshot(menu: menu, tabs: tabs, stock: stock)
  }

  /// Puts the slices back as they were in `snapshot`.
  public mutating func restore(_ snapshot: KioskSnapshot) {
    menu = snapshot.menu
    tabs = snapshot.tabs
    stock = snapshot.stock
  }
}
