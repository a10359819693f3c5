import CSQLite
import Foundation
import Journal
import JournalIO

/// The journal's group commit against SQLite doing the same inserts, in one
/// run on the same disk: each batch of 64 records one durable commit. SQLite
/// runs as a careful application would run it for this: WAL mode,
/// `synchronous=FULL` (every commit synced, as every journal batch is), one
/// prepared `INSERT` of (sequence, payload) per record, 64 to a transaction.
/// Rounds alternate between the two, so the disk's mood hits both alike.
enum SQLiteComparison {
  /// What SQLite said when a call failed.
  struct SQLiteFailed: Error, CustomStringConvertible {
    var description: String
  }

  /// The markdown table: records per second each way, and the ratio.
  static func run(batches: Int, batchSize: Int = 64, rounds: Int = 10) throws -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("group-commit-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let payload = JournalBenchmark.addedPayload

    var journal = try DurableJournal(path: folder.appendingPathComponent("group.journal").path)
    let database = try Database(path: folder.appendingPathComponent("group.sqlite").path)
    let batch = [[UInt8]](repeating: payload, count: batchSize)
    let perRound = max(batches / rounds, 1)
    var journalSeconds = 0.0
    var sqliteSeconds = 0.0
    var journalCPU = ProcessorTime()
    var sqliteCPU = ProcessorTime()
    var sequence: Int64 = 0
    for round in 0..<rounds {
      // Each goes first in every other round.
      for journalTurn in round.isMultiple(of: 2) ? [true, false] : [false, true] {
        let before = ProcessorTime.now()
        if journalTurn {
          journalSeconds += try timed { for _ in 0..<perRound { try journal.append(batch: batch) } }
          journalCPU.add(since: before)
        } else {
          sqliteSeconds += try timed {
            for _ in 0..<perRound {
              try database.insert(batch, from: sequence + 1)
              sequence += Int64(batchSize)
            }
          }
          sqliteCPU.add(since: before)
        }
      }
    }
    let records = Double(perRound * rounds * batchSize)
    guard try database.count() == Int(records), journal.lastSequence == UInt64(records) else {
      throw SQLiteFailed(description: "the two stores do not hold the same number of records")
    }
    let journalRate = records / journalSeconds
    let sqliteRate = records / sqliteSeconds
    let table = markdownTable(
      [
        "\(format(records, decimals: 0)) records, \(batchSize) per commit", "records per second",
        "user µs per record", "system µs per record",
      ],
      [
        [
          "the journal's group commit (`append(batch:)`: frame, CRC, `pwrite`, `fdatasync`)",
          format(journalRate, decimals: 0), format(1e6 * journalCPU.user / records, decimals: 2),
          format(1e6 * journalCPU.system / records, decimals: 2),
        ],
        [
          "SQLite \(String(cString: sqlite3_libversion())), WAL, `synchronous=FULL`, one transaction per batch",
          format(sqliteRate, decimals: 0), format(1e6 * sqliteCPU.user / records, decimals: 2),
          format(1e6 * sqliteCPU.system / records, decimals: 2),
        ],
      ])
    return table + """


      Group commit against SQLite: \(format(journalRate / sqliteRate, decimals: 2))x in records per second \
      (goal, issue 25: at least 2x). In user time, SQLite spends \
      \(format(sqliteCPU.user / max(journalCPU.user, 1e-9), decimals: 1))x what the journal does per record.
      """
  }

  /// Processor time in user and system mode (`getrusage`), in seconds: what
  /// a record costs apart from waiting for the disk, and where.
  struct ProcessorTime {
    var user = 0.0
    var system = 0.0

    /// This process's time so far.
    static func now() -> ProcessorTime {
      var usage = rusage()
      #if canImport(Glibc)
        getrusage(RUSAGE_SELF.rawValue, &usage)
      #else
        getrusage(RUSAGE_SELF, &usage)
      #endif
      func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
      return ProcessorTime(user: seconds(usage.ru_utime), system: seconds(usage.ru_stime))
    }

    /// Adds the time used since `start`.
    mutating func add(since start: ProcessorTime) {
      let end = Self.now()
      user += end.user - start.user
      system += end.system - start.system
    }
  }

  /// One SQLite database of records, with its insert prepared once.
  final class Database {
    private var handle: OpaquePointer?
    private var insertStatement: OpaquePointer?

    init(path: String) throws {
      // On failure SQLite still gives a handle; `deinit` closes it (it runs when init throws).
      guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK else {
        throw SQLiteFailed(description: "cannot open \(path): \(String(cString: sqlite3_errmsg(handle)))")
      }
      // SQLite answers OK and keeps its mode when WAL is not possible: the mode it answers must be WAL.
      guard try text("PRAGMA journal_mode=WAL") == "wal" else {
        throw SQLiteFailed(description: "\(path): SQLite would not use WAL mode")
      }
      try execute("PRAGMA synchronous=FULL")
      try execute("CREATE TABLE records (sequence INTEGER PRIMARY KEY, payload BLOB NOT NULL)")
      try check(
        sqlite3_prepare_v2(handle, "INSERT INTO records (sequence, payload) VALUES (?, ?)", -1, &insertStatement, nil))
    }

    deinit {
      sqlite3_finalize(insertStatement)
      sqlite3_close_v2(handle)
    }

    /// Inserts `payloads` numbered from `first` in one transaction, committed durably.
    func insert(_ payloads: [[UInt8]], from first: Int64) throws {
      try execute("BEGIN")
      do {
        try insertRows(payloads, from: first)
      } catch {
        sqlite3_reset(insertStatement)
        _ = sqlite3_exec(handle, "ROLLBACK", nil, nil, nil)
        throw error
      }
      try execute("COMMIT")
    }

    private func insertRows(_ payloads: [[UInt8]], from first: Int64) throws {
      for (offset, payload) in payloads.enumerated() {
        try check(sqlite3_bind_int64(insertStatement, 1, first + Int64(offset)))
        // SQLITE_STATIC (nil): the bytes outlive the step that reads them.
        let stepped = payload.withUnsafeBytes { bytes in
          sqlite3_bind_blob(insertStatement, 2, bytes.baseAddress, Int32(bytes.count), nil) == SQLITE_OK
            ? sqlite3_step(insertStatement) : SQLITE_MISUSE
        }
        guard stepped == SQLITE_DONE else { throw failure(stepped) }
        try check(sqlite3_reset(insertStatement))
      }
    }

    /// The first column of the first row `sql` gives, as text.
    private func text(_ sql: String) throws -> String? {
      var statement: OpaquePointer?
      try check(sqlite3_prepare_v2(handle, sql, -1, &statement, nil))
      defer { sqlite3_finalize(statement) }
      guard sqlite3_step(statement) == SQLITE_ROW, let text = sqlite3_column_text(statement, 0) else { return nil }
      return String(cString: text)
    }

    /// The rows in `records`.
    func count() throws -> Int {
      var statement: OpaquePointer?
      try check(sqlite3_prepare_v2(handle, "SELECT count(*) FROM records", -1, &statement, nil))
      defer { sqlite3_finalize(statement) }
      guard sqlite3_step(statement) == SQLITE_ROW else { throw failure(SQLITE_ERROR) }
      return Int(sqlite3_column_int64(statement, 0))
    }

    private func execute(_ sql: String) throws {
      try check(sqlite3_exec(handle, sql, nil, nil, nil))
    }

    private func check(_ code: Int32) throws {
      guard code == SQLITE_OK else { throw failure(code) }
    }

    private func failure(_ code: Int32) -> SQLiteFailed {
      SQLiteFailed(description: "SQLite \(code): \(String(cString: sqlite3_errmsg(handle)))")
    }
  }
}
