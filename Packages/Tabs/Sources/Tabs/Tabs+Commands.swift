import Menu
import Stock

extension HasMutableTabs where Self: ~Copyable {

  /// Opens an empty tab for `customer` and returns its id. Writes: tabs.
  @inlinable public mutating func openTab(for customer: String) -> Tab.ID {
    let id = tabs.issueID()
    tabs.open[id] = Tab(customer: customer)
    return id
  }
}

extension HasMutableTabs where Self: HasMenu & HasStock & ~Copyable {

  /// Adds `item` to an open tab, refusing what the kitchen cannot make.
  /// Writes: tabs. Reads: menu, stock.
  @inlinable public mutating func add(_ item: Item.ID, to tab: Tab.ID) throws(KioskError) {
    guard let current = tabs.open[tab] else { throw tabs.refusal(forMissing: tab) }
    guard current.lines.count < Tab.maxLines else { throw .tabFull(tab) }
    guard let recipe = menu.items[item]?.recipe else { throw .notOnMenu(item) }
    if let short = stock.shortage(for: recipe) { throw .cannotMake(item, short: short) }
    tabs.open[tab]!.lines.append(item)
  }
}

extension HasMutableTabs where Self: ~Copyable {

  /// Takes the last `item` off an open tab: how a tab over the processor's
  /// limit, or with a wrong line, is fixed. Writes: tabs.
  @inlinable public mutating func remove(_ item: Item.ID, from tab: Tab.ID) throws(KioskError) {
    try tabs.removeLine(item, from: tab)
  }
}
