import Foundation
import Journal
import Testing

/// A world holding the journal resource directly.
struct JournalWorld: ~Copyable, HasJournal {
  var journal: WriteAheadLog
}

struct Note: Codable, Equatable {
  var text: String
}

func temporaryPath() -> String {
  FileManager.default.temporaryDirectory.appendingPathComponent("journal-\(UUID().uuidString).log").path
}

@Test func appendedEntriesReadBackInOrder() throws {
  let path = temporaryPath()
  defer { try? FileManager.default.removeItem(atPath: path) }
  var world = JournalWorld(journal: try WriteAheadLog(path: path))
  try world.journal.append(Note(text: "open"))
  try world.journal.append(Note(text: "settle"))
  #expect(world.journal.appendedCount == 2)
  #expect(try WriteAheadLog.entries(of: Note.self, at: path) == [Note(text: "open"), Note(text: "settle")])
}

@Test func reopeningAppendsAfterWhatIsThere() throws {
  let path = temporaryPath()
  defer { try? FileManager.default.removeItem(atPath: path) }
  do {
    var log = try WriteAheadLog(path: path)
    try log.append(Note(text: "first"))
  }
  var log = try WriteAheadLog(path: path)
  try log.append(Note(text: "second"))
  #expect(try WriteAheadLog.entries(of: Note.self, at: path).map(\.text) == ["first", "second"])
}

@Test func openingInAMissingFolderFailsWithTheErrno() {
  #expect(throws: JournalError.cannotOpen(path: "/nonexistent/folder/log", errno: ENOENT)) {
    _ = try WriteAheadLog(path: "/nonexistent/folder/log")
  }
}
