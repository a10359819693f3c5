/// Why a tab command was refused.
public enum KioskError: Error, Equatable, Sendable {
  /// No tab has this id.
  case unknownTab(Tab.ID)
  /// The item is not on the menu, or cannot be made from the stock on hand.
  case unknownItem
  /// The tab was paid already.
  case alreadySettled(Tab.ID)
  /// The tab has no items: there is nothing to charge.
  case emptyTab(Tab.ID)
  /// The item is not on the tab, so it cannot be removed.
  case notOnTab(Tab.ID)
}
