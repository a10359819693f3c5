import Foundation
import Journal

/// A journal file in its own temporary folder, removed with the fixture.
final class JournalFile {
  let folder: URL
  let path: String

  init() throws {
    folder = FileManager.default.temporaryDirectory.appendingPathComponent("journal-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    path = folder.appendingPathComponent("kiosk.journal").path
  }

  deinit { try? FileManager.default.removeItem(at: folder) }

  var bytes: [UInt8] {
    get { Array(FileManager.default.contents(atPath: path) ?? Data()) }
    set { _ = FileManager.default.createFile(atPath: path, contents: Data(newValue)) }
  }

  /// Writes `count` records, `record 1` … `record N`, and closes the journal.
  /// Returns each record's starting offset.
  @discardableResult
  func fill(_ count: Int) throws -> [Int] {
    var log = try DurableJournal(path: path)
    var offsets: [Int] = []
    for index in 1...count {
      offsets.append(log.size)
      try log.append(payload(index))
    }
    return offsets
  }

  /// The texts of the records a fresh open recovers.
  func recoveredTexts() throws -> [String] {
    let log = try DurableJournal(path: path)
    return log.recovery.payloads.map { String(decoding: $0, as: UTF8.self) }
  }
}

func payload(_ index: Int) -> [UInt8] { Array("record \(index)".utf8) }

func texts(_ range: ClosedRange<Int>) -> [String] { range.map { "record \($0)" } }

/// A journal of `record 1` … `record 10`, a checkpoint `state A` (11), records
/// 12 … 15, a checkpoint `state B` (16) and records 17 … 18. Returns the two
/// checkpoints' offsets.
@discardableResult
func fillWithCheckpoints(_ file: JournalFile) throws -> (first: Int, second: Int) {
  var log = try DurableJournal(path: file.path)
  for index in 1...10 { try log.append(payload(index)) }
  let first = log.size
  try log.appendCheckpoint(Array("state A".utf8))
  for index in 12...15 { try log.append(payload(index)) }
  let second = log.size
  try log.appendCheckpoint(Array("state B".utf8))
  for index in 17...18 { try log.append(payload(index)) }
  return (first, second)
}
