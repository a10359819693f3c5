/// The kinds `linkgen new-domain` can scaffold.
public enum ScaffoldKind: String, CaseIterable, Sendable {
  /// A copyable state slice with one read and one command.
  case state
  /// A service protocol with a stateful and a stateless implementation.
  case service
}
