import Journal

/// Why a durable store refused to open, to step, or to close a period.
public enum DurableStoreError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The journal refused: it could not be opened, read, or appended to.
  case journal(JournalError)
  /// Record `sequence` does not replay: unreadable, or the feature now does
  /// something else with it than what the journal holds (`reason`).
  case replay(sequence: UInt64, reason: String)
  /// The journal at `path` is of `version`, which the feature's format does
  /// not read (`DurableFormat.versions`); it was left as it was.
  case unsupportedVersion(UInt16, path: String)
  /// A crash seam stopped the store at `point`: a test's simulated crash.
  case stopped(at: CrashPoint)
  /// An earlier append failed: the step it carried was not acknowledged and
  /// the state in memory may hold it, so the store refuses everything until
  /// it is opened again from its journal.
  case failedEarlier
  /// A period cannot close into `path`: it exists, or is where the journal,
  /// its next period or its checkpoint index are kept.
  case archiveExists(path: String)
  /// The journal cannot be renamed into the archive `path` (`reason`).
  /// Found before the period's end is journaled, nothing was written and the
  /// period goes on; found after (the rename itself failed), the store
  /// refuses everything, and opening it again finishes the close.
  case archiveFailed(path: String, reason: String)
  /// A period cannot close while these intents are open: their outcomes
  /// belong to it. `finish()` waits for the requests in flight; an intent
  /// whose request was cancelled is asked about when the store opens again.
  case intentsOpen(keys: [IntentKey])
  /// The journal at `path` is a closed period's archive (its last record
  /// closes the period into `path` itself), not a live journal: it is left as it is.
  case archive(path: String)
  /// The action is the store's own (an outcome fed back, a record read
  /// back), not one the app sends (`DurableFeature.isSendable`).
  case notSendable(String)
  /// The name of the file at `path` (with `whole`, the path itself),
  /// `bytes` long, leaves no room for the files kept beside it: the longest,
  /// `path` + `longest`, would be over the `limit` bytes its folder takes
  /// for a name (the system, for a path). Nothing was written.
  case nameWithoutRoom(path: String, whole: Bool, bytes: Int, longest: String, limit: Int)

  public var description: String {
    switch self {
    case .journal(let error): error.description
    case .replay(let sequence, let reason): "record \(sequence) does not replay: \(reason)"
    case .unsupportedVersion(let version, let path):
      "\(path) is a journal of version \(version), which this feature's format does not read"
    case .stopped(let point): "stopped at the crash seam \(point)"
    case .failedEarlier: "an earlier write to the journal failed; open the store again to recover from its journal"
    case .archiveExists(let path): "cannot close the period into \(path): a file is there, or the store's own"
    case .archiveFailed(let path, let reason):
      "cannot close the period into \(path): \(reason)"
    case .intentsOpen(let keys):
      "cannot close the period while \(keys.count) intent(s) are open (\(keys.map(\.text).joined(separator: ", "))): "
        + "wait for their requests, or open the store again to ask about them"
    case .archive(let path): "\(path) is a closed period's archive, not a live journal; open the live one"
    case .notSendable(let name): "'\(name)' is the store's own step, fed back or read back, not one to send"
    case .nameWithoutRoom(let path, let whole, let bytes, let longest, let limit):
      "the \(whole ? "path" : "name") of \(path) is \(bytes) bytes, and the files kept beside it have "
        + "\(whole ? "paths" : "names") up to \(longest.utf8.count) bytes longer (\(whole ? "PATH" : "NAME")\(longest)), "
        + "over the \(limit) bytes \(whole ? "the system takes for a path" : "its folder takes for a name"): "
        + "choose one of at most \(limit - longest.utf8.count) bytes; nothing was written"
    }
  }
}
