import JournalIO

/// The environment a production journal runs in: it links the real system
/// calls (`LinkPosixJournalIO`, generated into
/// `Generated/Journal/PosixJournalEnvironment+Links.swift`) and stores nothing.
public struct PosixJournalEnvironment: Sendable {
  /// Creates the environment.
  public init() {}
}
