/// The places a test can stop a durable store, as a crash would: the
/// store's `crashSeam` is called at each, and a seam that throws stops the
/// store there (it writes nothing more and refuses everything). The test then
/// opens the journal again, as the next process would.
public enum CrashPoint: Hashable, Sendable, CustomStringConvertible {
  /// A step ran in memory; its record is not written.
  case beforeRecord
  /// A step's record is synced; the step is not yet acknowledged.
  case afterRecord
  /// An intent is journaled; its service is not called.
  case beforePerform(IntentKey)
  /// The service answered; the outcome is not written.
  case afterPerform(IntentKey)
  /// A checkpoint is about to be written.
  case beforeCheckpoint
  /// Closing a period: its end is journaled (`periodClosed`); the next
  /// period's journal is not written yet.
  case periodEnded
  /// Closing a period: the next period's journal is written beside the current one.
  case periodNextWritten
  /// Closing a period: the current journal is now the read-only archive; the next one is not yet in its place.
  case periodArchived

  public var description: String {
    switch self {
    case .beforeRecord: "beforeRecord"
    case .afterRecord: "afterRecord"
    case .beforePerform(let key): "beforePerform(\(key))"
    case .afterPerform(let key): "afterPerform(\(key))"
    case .beforeCheckpoint: "beforeCheckpoint"
    case .periodEnded: "periodEnded"
    case .periodNextWritten: "periodNextWritten"
    case .periodArchived: "periodArchived"
    }
  }
}

/// What a crash seam throws to stop the store.
public struct SimulatedCrash: Error, Sendable, Equatable {
  /// A simulated crash.
  public init() {}
}
