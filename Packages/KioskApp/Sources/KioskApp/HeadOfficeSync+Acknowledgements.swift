import HeadOffice

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension HeadOfficeSync {
  /// What this till noted of the days the head office acknowledged, kept
  /// beside the journal: one line per day, `<till> <day> <salt> <digest>` (the
  /// salt names the archive file the digest was read from). A shortcut only
  /// (see `run`): a line that does not read exactly is ignored.
  struct Acknowledgements {
    /// One day's note.
    struct Note: Equatable {
      var salt: UInt64
      var digest: String
    }

    let path: String
    private var lines: [String] = []
    private var notes: [String: Note] = [:]

    /// The notes at `path`; none when the file is missing or unreadable.
    init(path: String) {
      self.path = path
      guard let bytes = FileManager.default.contents(atPath: path) else { return }
      // Split at `\n` bytes: a `\r\n` line holds a `\r`, so it reads as no note.
      for raw in bytes.split(separator: 0x0A) {
        let line = String(decoding: raw, as: UTF8.self)
        let fields = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false).map(String.init)
        guard fields.count == 4, isTillName(fields[0]), fields[1].wholeMatch(of: /[1-9][0-9]{0,8}/) != nil,
          fields[2].wholeMatch(of: /[0-9a-f]{16}/) != nil, let day = Int(fields[1]),
          let salt = UInt64(fields[2], radix: 16), fields[3].wholeMatch(of: /[\x21-\x7E][\x20-\x7E]*/) != nil
        else { continue }
        lines.append(line)
        notes["\(fields[0]) \(day)"] = Note(salt: salt, digest: fields[3])
      }
    }

    /// What was noted of day `day` of till `till`, if anything.
    func note(till: String, day: Int) -> Note? { notes["\(till) \(day)"] }

    /// Whether the head office was noted holding `archive`'s day for `till`, read from this very file.
    func acknowledged(_ archive: KioskSegments.Segment, till: String) -> Bool {
      guard let day = archive.day, let note = note(till: till, day: day) else { return false }
      return note.salt == KioskSegments.salt(of: archive.path)
    }

    /// Notes day `day` of `till`: the file is written whole to a temporary name
    /// of this process's, synced, and renamed over the old one. A sync running
    /// at the same time may rename its own over this one and lose this line:
    /// the day's archive is then read again next time, and answered `alreadyHeld`.
    mutating func add(till: String, day: Int, salt: UInt64, digest: String) throws {
      lines.append("\(till) \(day) \(Hex.lowercase(salt, digits: 16)) \(digest)")
      notes["\(till) \(day)"] = Note(salt: salt, digest: digest)
      do {
        try TillFiles.replace(path, with: Array((lines.joined(separator: "\n") + "\n").utf8))
      } catch KioskDaysError.file(_, let reason) {
        throw KioskDaysError.file(path: path, reason: "cannot note the head office's answer: \(reason)")
      }
    }
  }
}
