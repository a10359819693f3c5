import Menu

/// The tabs slice: every tab by id, and the next id to issue. Plain copyable data.
public struct TabsState: Codable, Equatable, Sendable {
  /// Open and settled tabs, by id.
  public var open: [Tab.ID: Tab]
  /// The number the next tab gets.
  public var nextID: Int

  /// Creates the slice.
  public init(open: [Tab.ID: Tab] = [:], nextID: Int = 1) {
    self.open = open
    self.nextID = nextID
  }

  /// Encodes the tabs in id order (decoding is Swift's own).
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encodeSorted(open, forKey: .open, by: <)
    try container.encode(nextID, forKey: .nextID)
  }

  /// Marks a tab settled; nothing happens for an unknown id.
  ///
  /// A method on the slice, so that a caller writing through a capability makes
  /// one access with one end: an optional-chain write through the capability
  /// (`tabs.open[id]?.settled = true`) ends its access on two paths, and Swift
  /// 6.3.1 then calls the accessor instead of inlining it (docs/ARCHITECTURE.md).
  @inlinable public mutating func markSettled(_ id: Tab.ID) {
    open[id]?.settled = true
  }

  /// Removes the last `item` from an unsettled tab (one access through a
  /// capability, like `markSettled`).
  @inlinable public mutating func removeLine(_ item: Item.ID, from id: Tab.ID) throws(KioskError) {
    guard let tab = open[id] else { throw .unknownTab(id) }
    guard !tab.settled else { throw .alreadySettled(id) }
    guard let last = tab.lines.lastIndex(of: item) else { throw .notOnTab(id) }
    open[id]!.lines.remove(at: last)
  }

  /// Hands out the next id.
  public mutating func issueID() -> Tab.ID {
    defer { nextID += 1 }
    return Tab.ID(raw: nextID)
  }
}
