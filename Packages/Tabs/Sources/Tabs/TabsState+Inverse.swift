import Menu

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The inverse of each tab command, as single writes to the slice: what undo
/// and a rolled-back command apply, so that neither keeps a copy of the slice.
extension TabsState {
  /// Undoes `openTab`: the tab goes, and the next id is what it was.
  @inlinable public mutating func closeTab(_ id: Tab.ID, restoringNextID nextID: Int) {
    open[id] = nil
    self.nextID = nextID
  }

  /// Undoes `add`: the tab's last line goes.
  @inlinable public mutating func dropLastLine(of id: Tab.ID) {
    _ = open[id]?.lines.popLast()
  }

  /// Undoes `remove`: `item` goes back where it was.
  @inlinable public mutating func insertLine(_ item: Item.ID, at index: Int, in id: Tab.ID) {
    guard let count = open[id]?.lines.count else { return }
    open[id]!.lines.insert(item, at: min(index, count))
  }

  /// Undoes the tab half of `settle`: `tab`, which came to `total`, is open
  /// again as it was, and no longer counted as settled.
  @inlinable public mutating func reopen(_ id: Tab.ID, as tab: Tab, total: Decimal) {
    guard open.updateValue(tab, forKey: id) == nil else { return }
    settled.count -= 1
    settled.total -= total
  }
}
