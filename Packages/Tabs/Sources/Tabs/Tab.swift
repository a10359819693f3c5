import Menu

/// One customer's open tab: who it is for and what they ordered. A tab that is
/// paid leaves the state (`TabsState.settle`).
public struct Tab: Codable, Equatable, Sendable {
  /// A tab's number, issued by `TabsState`, never by `UUID()`: replay stays deterministic.
  public struct ID: Hashable, Codable, Sendable, Comparable {
    /// The number itself.
    public let raw: Int

    /// Wraps a number.
    public init(raw: Int) { self.raw = raw }

    public static func < (lhs: ID, rhs: ID) -> Bool { lhs.raw < rhs.raw }
  }

  /// The most items one tab holds: keeps every sum over a tab far from overflow.
  public static let maxLines = 10_000

  /// Who the tab is for.
  public var customer: String
  /// The items ordered, in order.
  public var lines: [Item.ID]

  /// Creates a tab.
  public init(customer: String, lines: [Item.ID] = []) {
    self.customer = customer
    self.lines = lines
  }
}
