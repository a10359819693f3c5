import Foundation

extension HeadOfficeSync {
  /// The days the head office has acknowledged to this till, kept beside the
  /// journal: one line per day, `<till> <day> <digest>`. Only a shortcut: a
  /// day missing here is shipped again and acknowledged again, so a file lost,
  /// damaged or from another till's name costs time, never correctness.
  struct Acknowledgements {
    let path: String
    private(set) var lines: [String] = []
    private var keys: Set<String> = []

    /// The acknowledgements at `path`; none when the file is missing or unreadable.
    init(path: String) {
      self.path = path
      let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
      for line in text.split(separator: "\n") {
        let fields = line.split(separator: " ", maxSplits: 2)
        guard fields.count == 3, isTillName(String(fields[0])), let day = Int(fields[1]), day >= 1 else { continue }
        lines.append(String(line))
        keys.insert("\(fields[0]) \(day)")
      }
    }

    /// Whether the head office acknowledged day `day` to till `till`.
    func contains(till: String, day: Int) -> Bool { keys.contains("\(till) \(day)") }

    /// Notes day `day` of `till` as acknowledged: the file is written whole to
    /// a temporary name, synced, and renamed over the old one. A sync running
    /// at the same time may rename its own over this one and lose this line:
    /// the day is then shipped again next time, and answered `alreadyHeld`.
    mutating func add(till: String, day: Int, digest: String) throws {
      lines.append("\(till) \(day) \(digest)")
      keys.insert("\(till) \(day)")
      // Its own temporary name: two syncs of one till at once each write theirs, and the last rename wins.
      let temporary = path + ".next-\(getpid())"
      let bytes = Array((lines.joined(separator: "\n") + "\n").utf8)
      let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
      guard descriptor >= 0 else {
        throw KioskDaysError.file(path: temporary, reason: String(cString: strerror(errno)))
      }
      let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
      let synced = fsync(descriptor) == 0
      close(descriptor)
      guard written == bytes.count, synced, rename(temporary, path) == 0 else {
        unlink(temporary)
        throw KioskDaysError.file(path: path, reason: "cannot note the head office's acknowledgement")
      }
    }
  }
}
