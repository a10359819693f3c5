import Menu

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Reading the slice as journal format 2 wrote it: every tab of the day in
/// `open`, each with a `settled` flag, and no count of the settled ones. A
/// decoder whose `userInfo` holds a `TabsFormat2Reading` under its `key` reads
/// that form: the open tabs stay in `open`, the settled ones go to the reading
/// (their totals need the menu, which the kiosk's migration has), and
/// `settled.count` counts them. Any other decoder reads the current form only.
public final class TabsFormat2Reading: @unchecked Sendable {
  /// The key under which a decoder's `userInfo` holds the reading.
  public static let key = CodingUserInfoKey(rawValue: "Tabs.format2")!

  /// The settled tabs the decoded slices held, by id (one decode at a time:
  /// the reading is not shared between threads).
  public var settledTabs: [Tab.ID: Tab] = [:]

  /// An empty reading.
  public init() {}
}

extension TabsState {
  /// Decodes the current form, or format 2's when the decoder asks for it
  /// (`TabsFormat2Reading`).
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let nextID = try container.decode(Int.self, forKey: .nextID)
    guard let reading = decoder.userInfo[TabsFormat2Reading.key] as? TabsFormat2Reading else {
      self.init(
        open: try container.decode([Tab.ID: Tab].self, forKey: .open), nextID: nextID,
        settled: try container.decode(SettledTabs.self, forKey: .settled))
      return
    }
    var open: [Tab.ID: Tab] = [:]
    var settledCount = 0
    for (id, tab) in try container.decode([Tab.ID: Format2Tab].self, forKey: .open) {
      if tab.settled {
        reading.settledTabs[id] = Tab(customer: tab.customer, lines: tab.lines)
        settledCount += 1
      } else {
        open[id] = Tab(customer: tab.customer, lines: tab.lines)
      }
    }
    self.init(open: open, nextID: nextID, settled: SettledTabs(count: settledCount, total: 0))
  }

  /// A tab as format 2 held it.
  private struct Format2Tab: Decodable {
    var customer: String
    var lines: [Item.ID]
    var settled: Bool
  }
}
