/// The menu slice: every item for sale, by id. Plain copyable data.
public struct MenuState: Codable, Equatable, Sendable {
  /// The items, by id.
  public var items: [Item.ID: Item]

  /// Creates the slice.
  public init(items: [Item.ID: Item] = [:]) {
    self.items = items
  }
}
