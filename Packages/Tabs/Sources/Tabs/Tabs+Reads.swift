import Foundation
import Menu

extension HasTabs where Self: HasMenu & ~Copyable {

  /// A printable summary of one tab. Reads: tabs, menu.
  @inlinable public func summary(of id: Tab.ID) -> String {
    guard let tab = tabs.open[id] else { return "no such tab" }
    let names = tab.lines.compactMap { menu.items[$0]?.name }
    let status = tab.settled ? " (settled)" : ""
    let items = names.isEmpty ? "nothing yet" : names.joined(separator: ", ")
    return "#\(id.raw) \(tab.customer): \(items) — \(price(of: tab.lines))\(status)"
  }
}

/// The board of every tab, oldest first: what a view layer shows.
///
/// It borrows the environment and cannot mutate it: its constraints name no
/// `Mutable` capability. Reads: tabs, menu.
@inlinable public func renderBoard<Environment: HasTabs & HasMenu & ~Copyable>(_ environment: borrowing Environment)
  -> String
{
  environment.tabs.open.keys.sorted()
    .map { environment.summary(of: $0) }
    .joined(separator: "\n")
}
