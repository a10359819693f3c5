import Foundation
import Menu
import PaymentTesting
import Stock
import Tabs

/// The world a scenario step and a replay request run in: the request's
/// slices, a recording mock of the processor whose calls are the step's
/// effects, and a frozen clock. No journal and no file: replay cannot reach
/// one even by mistake. Its conformances are generated
/// (`Generated/KioskFeatures/ScenarioWorld+Links.swift`).
public struct ScenarioWorld: ~Copyable {
  /// The time every scenario step reads: 2025-06-15T15:06:40Z.
  public static let now = Date(timeIntervalSince1970: 1_750_000_000)

  /// The menu slice.
  public var menu: MenuState
  /// The stock slice.
  public var stock: StockState
  /// The tabs slice.
  public var tabs: TabsState
  // linkgen:ScenarioWorld-storage-end (`linkgen new-domain NAME --world …` declares new slices above)
  /// The processor, as a recording mock.
  public var paymentMock: PaymentGatewayMock
  /// What the fixed clock reads.
  public let frozenNow = ScenarioWorld.now

  /// A world of these slices, charging through `paymentMock`.
  public init(menu: MenuState, stock: StockState, tabs: TabsState, paymentMock: PaymentGatewayMock) {
    self.menu = menu
    self.stock = stock
    self.tabs = tabs
    self.paymentMock = paymentMock
  }
}
