/// What the tabs domain writes to the journal.
public enum TabEvent: Codable, Equatable, Sendable {
  /// A tab was paid; the receipt carries the gateway reference and the time.
  case settled(Receipt)
}
