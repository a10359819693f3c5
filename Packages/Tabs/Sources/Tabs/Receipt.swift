import Payment

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What `settle` returns and journals: the money taken and the external outcomes.
public struct Receipt: Codable, Equatable, Sendable {
  /// The settled tab.
  public var tab: Tab.ID
  /// The amount charged.
  public var total: Decimal
  /// When, by the linked clock, to the second (`Receipt.time(_:)`).
  public var chargedAt: Date
  /// The gateway's charge reference.
  public var reference: String
  /// The idempotency key the charge was made under (nil in journals written
  /// before keys existed).
  public var key: IdempotencyKey?

  /// Creates a receipt.
  public init(tab: Tab.ID, total: Decimal, chargedAt: Date, reference: String, key: IdempotencyKey? = nil) {
    self.tab = tab
    self.total = total
    self.chargedAt = chargedAt
    self.reference = reference
    self.key = key
  }
}

extension Receipt {
  /// The time a receipt records for a charge at `now`: to the second, towards
  /// the past, as the journal and the canonical form write it, so a receipt
  /// read back from the journal is the receipt the till made.
  public static func time(_ now: Date) -> Date {
    Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
  }
}
