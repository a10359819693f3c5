/// The menu slice: every item for sale, by id. Plain copyable data.
public struct MenuState: Codable, Equatable, Sendable {
  /// The items, by id.
  public var items: [Item.ID: Item]

  /// Creates the slice.
  public init(items: [Item.ID: Item] = [:]) {
    self.items = items
  }

  /// Encodes the items in id order (decoding is Swift's own).
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encodeSorted(items, forKey: .items, by: <)
  }
}
