import Journal

/// `kiosk --version`: the kiosk's version and the journal format a new journal
/// gets. It opens no file and reads no variable, so it is what a process costs
/// to start and stop (`make bench`'s start-up table).
struct VersionOutput: CommandOutput {
  /// The kiosk's version: bumped when a release is tagged.
  static let current = "0.9.0"

  /// The version.
  var version = Self.current
  /// The journal format version new journals are written in.
  var journalFormat = Int(JournalFormat.version)

  var text: [String] { ["kiosk \(version) (journal format \(journalFormat))"] }
}
