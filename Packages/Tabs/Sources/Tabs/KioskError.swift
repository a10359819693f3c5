import Menu
import Payment

/// Why a tab command was refused: every way, each with its facts.
public enum KioskError: Error, Equatable, Sendable {
  /// No tab has this id.
  case unknownTab(Tab.ID)
  /// The item is not on the menu.
  case notOnMenu(Item.ID)
  /// The item is on the menu, but the stock on hand is short of `short`.
  case cannotMake(Item.ID, short: Ingredient)
  /// A settle needs more of `ingredient` than the stock holds.
  case shortage(Ingredient)
  /// The tab holds `Tab.maxLines` items already.
  case tabFull(Tab.ID)
  /// The payment processor refused the charge or did not answer.
  case payment(PaymentError)
  /// The tab was paid already.
  case alreadySettled(Tab.ID)
  /// The tab has no items: there is nothing to charge.
  case emptyTab(Tab.ID)
  /// The item is not on the tab, so it cannot be removed.
  case notOnTab(Tab.ID)
  /// A customer name breaks `CustomerName`'s rules.
  case invalidName(CustomerName.Refusal)
}
