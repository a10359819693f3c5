import Clock
import Foundation
import Journal
import Menu
import Payment
import Stock

extension HasMutableTabs
where Self: HasMutableStock & HasMenu & HasPayment & HasClock & HasJournal & ~Copyable {

  /// Charges a tab, consumes its ingredients, marks it settled and journals the receipt.
  ///
  /// Writes: tabs, stock, payment session, journal. Reads: menu, clock. All of
  /// it is in the constraint list; nothing is ambient (no `Date()`, no UUID).
  ///
  /// Atomic: every check runs before the first write, and the writes that can
  /// fail (the charge, the journal append) come before the ones that cannot, so
  /// a thrown error leaves tabs and stock exactly as they were.
  @inlinable public mutating func settle(_ id: Tab.ID) throws -> Receipt {
    // ── read phase ──────────────────────────────────────────────
    guard let tab = tabs.open[id] else { throw KioskError.unknownTab(id) }
    guard !tab.settled else { throw KioskError.alreadySettled(id) }
    let total = price(of: tab.lines)
    var needs: [Ingredient: Int] = [:]
    for line in tab.lines {
      for (ingredient, count) in menu.items[line]?.recipe ?? [:] { needs[ingredient, default: 0] += count }
    }
    if let short = stock.shortage(for: needs) { throw StockState.Shortage.insufficient(short) }

    // ── fallible effects: the charge, then the write-ahead record ──
    let reference = try payment.charge(total)
    let receipt = Receipt(tab: id, total: total, chargedAt: clock.now(), reference: reference)
    try journal.append(TabEvent.settled(receipt))

    // ── write phase: stock, hoisted once; then tabs ─────────────
    try withMutableRef(&stock) { (stockRef) throws(StockState.Shortage) in
      for (ingredient, count) in needs {
        // Cannot throw: the read phase proved every count is covered.
        try stockRef.value.consume(ingredient, count: count)
      }
    }
    tabs.open[id]!.settled = true
    return receipt
  }
}
