#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension HasMenu where Self: ~Copyable {

  /// Sum of menu prices for a list of items; unknown items count as zero. Reads: menu.
  @inlinable public func price(of lines: [Item.ID]) -> Decimal {
    lines.reduce(Decimal.zero) { total, id in
      total + (menu.items[id]?.price ?? 0)
    }
  }
}
