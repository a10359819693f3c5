import Menu

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The tabs slice: the open tabs by id, the next id to issue, and the day's
/// settled tabs, counted. Plain copyable data.
///
/// A settled tab leaves the slice. Its receipt is in the day's journal and the
/// tab itself in the day's settled-tabs file, so the state, each checkpoint of
/// it and every process that opens the till are as large as the open tabs,
/// however long the day (docs/journal.md, "Settled tabs").
public struct TabsState: Codable, Equatable, Sendable {
  /// The tabs not settled yet, by id.
  public var open: [Tab.ID: Tab]
  /// The number the next tab gets.
  public var nextID: Int
  /// How many tabs the day settled, and what they came to.
  public var settled: SettledTabs

  /// Creates the slice.
  public init(open: [Tab.ID: Tab] = [:], nextID: Int = 1, settled: SettledTabs = SettledTabs()) {
    self.open = open
    self.nextID = nextID
    self.settled = settled
  }

  enum CodingKeys: String, CodingKey { case open, nextID, settled }

  /// Encodes the tabs in id order (`TabsState+Format2.swift` decodes).
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encodeSorted(open, forKey: .open, by: <)
    try container.encode(nextID, forKey: .nextID)
    try container.encode(settled, forKey: .settled)
  }

  /// Whether `id` was issued: a tab at or past `nextID` never was, and one
  /// before it that is not open was settled (an undone `open` gives its
  /// number back, so no issued number is missing).
  @inlinable public func wasIssued(_ id: Tab.ID) -> Bool { id.raw >= 1 && id.raw < nextID }

  /// Whether `id` was settled: issued, and no longer open.
  @inlinable public func isSettled(_ id: Tab.ID) -> Bool { wasIssued(id) && open[id] == nil }

  /// Why `id` is not an open tab: settled already, or never issued.
  @inlinable public func refusal(forMissing id: Tab.ID) -> KioskError {
    wasIssued(id) ? .alreadySettled(id) : .unknownTab(id)
  }

  /// Settles the open tab `id`, which came to `total`: it leaves the slice and
  /// is counted in `settled`. Nothing happens for an id that is not open.
  ///
  /// A method on the slice, so that a caller writing through a capability makes
  /// one access with one end: an optional-chain write through the capability
  /// ends its access on two paths, and Swift 6.3.1 then calls the accessor
  /// instead of inlining it (docs/ARCHITECTURE.md).
  @inlinable public mutating func settle(_ id: Tab.ID, total: Decimal) {
    guard open.removeValue(forKey: id) != nil else { return }
    settled.count += 1
    settled.total += total
  }

  /// Removes the last `item` from an open tab (one access through a
  /// capability, like `settle`).
  @inlinable public mutating func removeLine(_ item: Item.ID, from id: Tab.ID) throws(KioskError) {
    guard let tab = open[id] else { throw refusal(forMissing: id) }
    guard let last = tab.lines.lastIndex(of: item) else { throw .notOnTab(id) }
    open[id]!.lines.remove(at: last)
  }

  /// Hands out the next id.
  public mutating func issueID() -> Tab.ID {
    defer { nextID += 1 }
    return Tab.ID(raw: nextID)
  }
}

/// The day's settled tabs, counted: the tabs themselves are in the day's
/// journal and its settled-tabs file, not in the state.
public struct SettledTabs: Codable, Equatable, Sendable {
  /// How many tabs were settled.
  public var count: Int
  /// What they came to, together.
  public var total: Decimal

  /// Creates the count (none by default: a day starts with nothing settled).
  public init(count: Int = 0, total: Decimal = 0) {
    self.count = count
    self.total = total
  }
}
