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
      out.append(contentsOf: #"{"set":{"seconds":"#.utf8)
      out.append(contentsOf: String(seconds).utf8)
      out.append(contentsOf: #","title":"#.utf8)
      JSONValue.writeString(title, to: &out)
      out.append(contentsOf: "}}".utf8)
    case .dismiss(let title): Self.write("dismiss", title: title, to: &out)
    case .ring(let title): Self.write("ring", title: title, to: &out)
    case .notified(let title): Self.write("notified", title: title, to: &out)
    case .notDelivered(let title, let reason):
      out.append(contentsOf: #"{"notDelivered":{"reason":"#.utf8)
      JSONValue.writeString(reason, to: &out)
      out.append(contentsOf: #","title":"#.utf8)
      JSONValue.writeString(title, to: &out)
      out.append(contentsOf: "}}".utf8)
    }
  }

  /// `{"<name>":{"title":…}}`.
  private static func write(_ name: String, title: String, to out: inout [UInt8]) {
    out.append(contentsOf: #"{""#.utf8)
    out.append(contentsOf: name.utf8)
    out.append(contentsOf: #"":{"title":"#.utf8)
    JSONValue.writeString(title, to: &out)
    out.append(contentsOf: "}}".utf8)
  }
}
