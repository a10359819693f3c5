import Menu

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// One tab as a view shows it: the facts, not their text (the kiosk's command
/// line renders them; the domain does not format).
public struct BoardEntry: Equatable, Sendable {
  /// The tab's number.
  public var tab: Tab.ID
  /// Who it is for.
  public var customer: String
  /// The names of its items, in order.
  public var items: [String]
  /// What it costs.
  public var total: Decimal
  /// Whether it is paid.
  public var settled: Bool

  /// Creates an entry.
  public init(tab: Tab.ID, customer: String, items: [String], total: Decimal, settled: Bool) {
    self.tab = tab
    self.customer = customer
    self.items = items
    self.total = total
    self.settled = settled
  }
}

extension HasTabs where Self: HasMenu & ~Copyable {

  /// Every open tab, oldest first, with its items named and priced (the
  /// settled ones are not in the state: the kiosk lists them from the day's
  /// settled-tabs file). Reads: tabs, menu.
  ///
  /// It borrows the world and cannot mutate it: its constraints name no
  /// `Mutable` capability.
  @inlinable public var board: [BoardEntry] {
    tabs.open.keys.sorted().map { id in
      let tab = tabs.open[id]!
      return BoardEntry(
        tab: id, customer: tab.customer, items: tab.lines.compactMap { menu.items[$0]?.name },
        total: price(of: tab.lines), settled: false)
    }
  }
}
