/// What shipping a day did.
public enum Shipment: Equatable, Sendable {
  /// The day was new: it is stored now, with this many records.
  case stored(records: Int)
  /// The head office already held the day, with the same digest: nothing changed.
  case alreadyHeld
}
