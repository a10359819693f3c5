import CanonicalJSON

extension Reminders.Action {
  /// The action's canonical text, written by hand: a durable store journals
  /// one on every step, and building it through `Codable` costs about ten
  /// times as much. `everyActionWrittenByHandIsItsCanonicalText` holds it to
  /// `canonical`; the switch names every case, so a new one is written here
  /// before it compiles.
  public func writeCanonical(to out: inout [UInt8]) {
    switch self {
    case .set(let title, let seconds):
      JSONValue.writeLiteral(#"{"set":{"seconds":"#, to: &out)
      JSONValue.writeInteger(seconds, to: &out)
      JSONValue.writeLiteral(#","title":"#, to: &out)
      JSONValue.writeString(title, to: &out)
      JSONValue.writeLiteral("}}", to: &out)
    case .dismiss(let title): Self.write("dismiss", title: title, to: &out)
    case .ring(let title): Self.write("ring", title: title, to: &out)
    case .notified(let title): Self.write("notified", title: title, to: &out)
    case .notDelivered(let title, let reason):
      JSONValue.writeLiteral(#"{"notDelivered":{"reason":"#, to: &out)
      JSONValue.writeString(reason, to: &out)
      JSONValue.writeLiteral(#","title":"#, to: &out)
      JSONValue.writeString(title, to: &out)
      JSONValue.writeLiteral("}}", to: &out)
    }
  }

  /// `{"<name>":{"title":…}}`.
  private static func write(_ name: String, title: String, to out: inout [UInt8]) {
    JSONValue.writeLiteral(#"{""#, to: &out)
    out.append(contentsOf: name.utf8)
    JSONValue.writeLiteral(#"":{"title":"#, to: &out)
    JSONValue.writeString(title, to: &out)
    JSONValue.writeLiteral("}}", to: &out)
  }
}
