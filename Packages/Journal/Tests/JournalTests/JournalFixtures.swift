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
      offsets.append(bytes.count)
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
