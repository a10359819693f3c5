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

  /// Hands out the next id.
  public mutating func issueID() -> Tab.ID {
    defer { nextID += 1 }
    return Tab.ID(raw: nextID)
  }
}
