import Foundation
import Journal
import Testing

/// A derived log beside a journal file, in the file's temporary folder.
private func logPath(_ file: JournalFile) -> String { file.path + ".derived" }

private func entry(_ index: Int) -> [UInt8] { Array("entry \(index)".utf8) }

/// Appends `count` entries (numbered from `first`) to a new log and returns where they end.
private func written(_ count: Int, at path: String, salt: UInt64 = 7, first: Int = 0) -> DerivedLog.Mark {
  var log = DerivedLog(path: path, salt: salt, keeping: .empty)
  for index in first..<first + count { log.append(entry(index)) }
  return log.synchronized()!
}

@Test func aLogKeepsTheEntriesItsMarkVouchesForAndNothingAfterThem() throws {
  let file = try JournalFile()
  let path = logPath(file)
  let mark = written(3, at: path)
  #expect(mark.entries == 3)
  // Two more entries the journal never vouched for (a writer that crashed before its checkpoint).
  var log = DerivedLog(path: path, salt: 7, keeping: mark)
  log.append(entry(3))
  log.append(entry(4))
  let reopened = DerivedLog(path: path, salt: 7, keeping: mark)
  let (kept, reopenedMark) = (reopened.kept, reopened.mark)
  #expect(kept)
  #expect(reopenedMark == mark)
  #expect(DerivedLog.read(path: path, salt: 7, through: mark) == (0..<3).map { entry($0)[...] })
  let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int
  #expect(size == mark.end, "what came after the mark is cut")
}

@Test func aLogThatDoesNotHoldItsMarkStartsAgainEmpty() throws {
  let file = try JournalFile()
  let path = logPath(file)
  let mark = written(3, at: path)
  let bytes = try #require(FileManager.default.contents(atPath: path))
  let cases: [(String, Data, UInt64, DerivedLog.Mark)] = [
    ("cut short", bytes.prefix(mark.end - 2), 7, mark),
    (
      "a flipped byte",
      {
        var copy = bytes
        copy[DerivedLog.headerSize + 9] ^= 1
        return copy
      }(), 7, mark
    ),
    ("another journal's", bytes, 8, mark),
    ("fewer entries than the mark says", bytes, 7, DerivedLog.Mark(end: mark.end, entries: 4, digest: mark.digest)),
    (
      "a mark without a digest (written before marks had one)", bytes, 7,
      DerivedLog.Mark(end: mark.end, entries: 3, digest: nil)
    ),
    (
      "as many entries of the same lengths, saying other things (another copy of the file)",
      {
        let other = written(3, at: path + ".other", salt: 7, first: 5)
        #expect(other.end == mark.end && other.entries == mark.entries && other.digest != mark.digest)
        return FileManager.default.contents(atPath: path + ".other")!
      }(), 7, mark
    ),
    ("missing", Data(), 7, mark),
  ]
  for (name, contents, salt, keeping) in cases {
    try contents.write(to: URL(fileURLWithPath: path))
    let log = DerivedLog(path: path, salt: salt, keeping: keeping)
    let (kept, started) = (log.kept, log.mark)
    #expect(!kept, "\(name)")
    #expect(started == .empty, "\(name)")
    #expect(DerivedLog.read(path: path, salt: salt, through: .empty) == [], "\(name)")
    #expect(DerivedLog.read(path: path, salt: salt, through: keeping) == nil, "\(name)")
  }
}

@Test func keepingNothingIsKeptByStartingEmpty() throws {
  let file = try JournalFile()
  let path = logPath(file)
  _ = written(2, at: path, salt: 9)
  let log = DerivedLog(path: path, salt: 7, keeping: .empty)
  let kept = log.kept
  #expect(kept)
  #expect(DerivedLog.read(path: path, salt: 7, through: .empty) == [])
}

@Test func aReaderGetsNothingFromALogThatIsNotWhatTheMarkSays() throws {
  let file = try JournalFile()
  let path = logPath(file)
  let mark = written(2, at: path)
  #expect(DerivedLog.read(path: path, salt: 7, through: mark)?.count == 2)
  let digest = mark.digest
  #expect(
    DerivedLog.read(path: path, salt: 7, through: DerivedLog.Mark(end: mark.end, entries: 1, digest: digest)) == nil)
  #expect(DerivedLog.read(path: path, salt: 7, through: DerivedLog.Mark(end: mark.end, entries: 2, digest: 1)) == nil)
  #expect(DerivedLog.read(path: path, salt: 7, through: DerivedLog.Mark(end: mark.end, entries: 2, digest: nil)) == nil)
  #expect(
    DerivedLog.read(path: path, salt: 7, through: DerivedLog.Mark(end: mark.end + 8, entries: 3, digest: digest)) == nil
  )
  #expect(
    DerivedLog.read(path: path, salt: 7, through: DerivedLog.Mark(end: mark.end + 8, entries: 2, digest: digest))
      == nil,
    "a file shorter than the mark does not hold it, however many entries it has")
  #expect(DerivedLog.read(path: file.path + ".absent", salt: 7, through: .empty) == nil)
}

@Test func aLinkOrAFIFOWhereTheLogBelongsIsNeverWrittenThrough() throws {
  let file = try JournalFile()
  let path = logPath(file)
  let target = file.folder.appendingPathComponent("elsewhere").path
  _ = FileManager.default.createFile(atPath: target, contents: Data("keep me".utf8))
  try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
  var linked = DerivedLog(path: path, salt: 7, keeping: .empty)
  let (linkedMark, linkedKept) = (linked.mark, linked.kept)
  #expect(linkedMark == nil && !linkedKept)
  linked.append(entry(0))
  let synchronized = linked.synchronized()
  #expect(synchronized == nil)
  #expect(FileManager.default.contents(atPath: target) == Data("keep me".utf8))
  #expect(DerivedLog.read(path: path, salt: 7, through: .empty) == nil)

  let fifo = file.folder.appendingPathComponent("fifo").path
  #expect(mkfifo(fifo, 0o644) == 0)
  let piped = DerivedLog(path: fifo, salt: 7, keeping: .empty)
  let pipedMark = piped.mark
  #expect(pipedMark == nil)
  #expect(DerivedLog.read(path: fifo, salt: 7, through: .empty) == nil)
}

@Test func anAbandonedLogAppendsNothingMoreAndVouchesForNothing() throws {
  let file = try JournalFile()
  let path = logPath(file)
  var log = DerivedLog(path: path, salt: 7, keeping: .empty)
  log.append(entry(0))
  log.abandon()
  log.append(entry(1))
  let synchronized = log.synchronized()
  #expect(synchronized == nil)
  let one = written(1, at: path + ".one")
  #expect(DerivedLog.read(path: path, salt: 7, through: one) == [entry(0)[...]])
  #expect(DerivedLog.markOfWholeFile(path: path, salt: 7) == one)
}
