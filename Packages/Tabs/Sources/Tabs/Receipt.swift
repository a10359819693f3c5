import Foundation

/// What `settle` returns and journals: the money taken and the external outcomes.
public struct Receipt: Codable, Equatable, Sendable {
  /// The settled tab.
  public var tab: Tab.ID
  /// The amount charged.
  public var total: Decimal
  /// When, by the linked clock.
  public var chargedAt: Date
  /// The gateway's charge reference.
  public var reference: String

  /// Creates a receipt.
  public init(tab: Tab.ID, total: Decimal, chargedAt: Date, reference: String) {
    self.tab = tab
    self.total = total
    self.chargedAt = chargedAt
    self.reference = reference
  }
}
