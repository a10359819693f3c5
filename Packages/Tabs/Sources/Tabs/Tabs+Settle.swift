import Clock
import Menu
import Payment
import Stock

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The read phase of a settle: everything checked, nothing written yet.
public struct Settlement: Equatable, Sendable {
  /// The tab to settle.
  public let tab: Tab.ID
  /// The tab as it is paid for: what leaves the state, and what undo puts back.
  public let contents: Tab
  /// What it costs.
  public let total: Decimal
  /// Units of each ingredient its lines consume, summed over the recipes.
  public let needs: [Ingredient: Int]

  /// Creates a settlement (the read phase builds these).
  public init(tab: Tab.ID, contents: Tab, total: Decimal, needs: [Ingredient: Int]) {
    self.tab = tab
    self.contents = contents
    self.total = total
    self.needs = needs
  }
}

extension HasTabs where Self: HasMenu & HasStock & ~Copyable {

  /// The read phase of `settle`: checks the tab and the stock for the whole
  /// order at once, and returns what the write phase will do. Reads: tabs, menu, stock.
  @inlinable public func settlement(for id: Tab.ID) throws(KioskError) -> Settlement {
    guard let tab = tabs.open[id] else { throw tabs.refusal(forMissing: id) }
    guard !tab.lines.isEmpty else { throw .emptyTab(id) }
    var needs: [Ingredient: Int] = [:]
    for line in tab.lines {
      for (ingredient, count) in menu.items[line]?.recipe ?? [:] { needs[ingredient, default: 0] += count }
    }
    if let short = stock.shortage(for: needs) { throw .shortage(short) }
    return Settlement(tab: id, contents: tab, total: price(of: tab.lines), needs: needs)
  }
}

extension HasMutableTabs where Self: HasMutableStock & ~Copyable {

  /// The write phase of `settle`: consumes the stock, hoisted once, and
  /// settles the tab (it leaves the open tabs and is counted). Cannot fail for a settlement computed from this state.
  /// Writes: stock, tabs.
  @inlinable public mutating func commit(_ settlement: Settlement) {
    withMutableRef(&stock) { stockRef in
      for (ingredient, count) in settlement.needs {
        stockRef.value.units[ingredient, default: 0] -= count
      }
    }
    tabs.settle(settlement.tab, total: settlement.total)
  }
}

extension HasMutableTabs where Self: HasMutableStock & HasMenu & HasPayment & HasClock & ~Copyable {

  /// Charges a tab, consumes its ingredients and marks it settled.
  ///
  /// Writes: tabs, stock, payment session. Reads: menu, clock. All of it is in
  /// the constraint list; nothing is ambient (no `Date()`, no UUID).
  ///
  /// Atomic: every check runs before the charge, and the charge (the one effect
  /// that can fail) before the writes, which cannot; a thrown error leaves tabs
  /// and stock exactly as they were. Replay calls `commit` with the recorded
  /// receipt instead, so it never calls the gateway or the clock.
  ///
  /// `key` names this charge at the processor: charging again under the same
  /// key moves no money (the kiosk journals an intent with the key first).
  @inlinable public mutating func settle(_ id: Tab.ID, key: IdempotencyKey) throws(KioskError) -> Receipt {
    try charge(try settlement(for: id), key: key)
  }

  /// The effect and write phases of `settle`, for a settlement its caller
  /// already read from this state: charges its total under `key`, then commits it.
  @inlinable public mutating func charge(_ settlement: Settlement, key: IdempotencyKey) throws(KioskError) -> Receipt {
    let reference: String
    do { reference = try payment.charge(settlement.total, key: key) } catch { throw .payment(error) }
    let receipt = Receipt(
      tab: settlement.tab, total: settlement.total, chargedAt: Receipt.time(clock.now()), reference: reference,
      key: key)
    commit(settlement)
    return receipt
  }
}
