/// What renaming a till at the head office did.
public enum Renaming: Equatable, Sendable {
  /// The till's new name is recorded: its days under the old name are its own.
  case renamed
  /// The head office had recorded this very renaming before: nothing changed.
  case alreadyRenamed
}
