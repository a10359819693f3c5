/// The kinds `linkgen new-domain` can scaffold.
public enum ScaffoldKind: String, CaseIterable, Sendable {
  /// A copyable state slice with one read and one command.
  case state
  /// A service protocol with a stateful and a stateless implementation.
  case service
}

/// The link `linkgen new-domain --world WORLD[:LINK]` gives a new service in a world.
public enum ScaffoldLink: String, CaseIterable, Sendable {
  /// `Live`: the stateful implementation, stored in the world's struct.
  case live = "Live"
  /// `Fake`: the stateless implementation, for test worlds; nothing is stored.
  case fake = "Fake"
}
