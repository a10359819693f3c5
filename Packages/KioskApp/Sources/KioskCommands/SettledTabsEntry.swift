import Menu
import Tabs

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A tab the day settled, as the day's settled-tabs file keeps it: the tab as
/// it was paid for, and its receipt.
public struct SettledTab: Equatable, Sendable {
  /// The tab's contents when it was settled.
  public var tab: Tab
  /// Its receipt (the tab's number, the total, the time, the charge).
  public var receipt: Receipt

  /// Creates the pair.
  public init(tab: Tab, receipt: Receipt) {
    self.tab = tab
    self.receipt = receipt
  }
}

/// One entry of the day's settled-tabs file: a tab left the state because it
/// was settled, or came back because its settle was undone. The entries are
/// in the order of the journal records they come from, so the file says what
/// replaying the day says (`SettledTabsEntry.fold`).
public enum SettledTabsEntry: Codable, Equatable, Sendable {
  /// A `settled` record: the tab as it was paid for, and the receipt.
  case settled(Receipt, tab: Tab)
  /// An `undone` record that reverted the settle of this tab.
  case reopened(Tab.ID)

  /// The entry the undoable `entry` makes when it applies: a settle's, or nil.
  public static func made(by entry: UndoHistory.Entry) -> SettledTabsEntry? {
    guard case .settled(let receipt) = entry.record, case .reopen(_, let tab, _, _) = entry.step else { return nil }
    return .settled(receipt, tab: tab)
  }

  /// The entry that undoing `entry` makes: the tab of a settle comes back.
  public static func undoing(_ entry: UndoHistory.Entry) -> SettledTabsEntry? {
    guard case .settled(let receipt) = entry.record else { return nil }
    return .reopened(receipt.tab)
  }

  /// The tabs `entries` leave settled, by number: a tab reopened is no longer
  /// settled, and a tab settled again is the last settle's.
  public static func fold(_ entries: some Sequence<SettledTabsEntry>) -> [Tab.ID: SettledTab] {
    var settled: [Tab.ID: SettledTab] = [:]
    for entry in entries {
      switch entry {
      case .settled(let receipt, let tab): settled[receipt.tab] = SettledTab(tab: tab, receipt: receipt)
      case .reopened(let id): settled[id] = nil
      }
    }
    return settled
  }
}
