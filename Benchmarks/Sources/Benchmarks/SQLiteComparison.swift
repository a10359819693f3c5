import CSQLite
import Foundation
import Journal
import JournalIO

/// The journal's group commit against SQLite doing the same inserts, in one
/// run on the same file system: each batch of 64 records one durable commit.
/// SQLite runs as a careful application would run it for this: WAL mode,
/// `synchronous=FULL` (every commit synced, as every journal batch is), one
/// prepared `INSERT` of (sequence, payload) per record, 64 to a transaction.
/// Two floors take their turns in the same rounds: the batch's framed bytes
/// written with one `pwrite` + `fdatasync` and nothing else, once extending a
/// file and once overwriting space written before (what SQLite's WAL mostly
/// does, and the journal too since it writes zeros ahead: docs/journal.md,
/// "Space ahead"), so the table says how much of each side's
/// time is the file system's. Rounds alternate the order, so the disk's mood
/// hits all four alike.
enum SQLiteComparison {
  /// What SQLite said when a call failed.
  struct SQLiteFailed: Error, CustomStringConvertible {
    var description: String
  }

  /// The markdown table: records per second each way, the floors, and the ratios.
  static func run(batches: Int, batchSize: Int = 64, rounds: Int = 10) throws -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("group-commit-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let payload = JournalBenchmark.addedPayload
    let perRound = max(batches / rounds, 1)
    let batchBytes = batchSize * (payload.count + JournalFormat.frameSize)

    var journal = try DurableJournal(path: folder.appendingPathComponent("group.journal").path)
    let database = try Database(path: folder.appendingPathComponent("group.sqlite").path)
    let appending = try RawFile(path: folder.appendingPathComponent("append.raw").path, batchBytes: batchBytes)
    let overwriting = try RawFile(
      path: folder.appendingPathComponent("overwrite.raw").path, batchBytes: batchBytes,
      writtenAhead: batchBytes * (perRound * rounds + 1))
    let batch = [[UInt8]](repeating: payload, count: batchSize)
    // One untimed commit each first (see JournalBenchmark: the first write of
    // a run can pay for the heap that earlier benchmarks left).
    try journal.append(batch: batch)
    try database.insert(batch, from: 1)
    try appending.commit()
    try overwriting.commit()
    var sequence = Int64(batchSize)

    var seconds = [Double](repeating: 0, count: Contestant.allCases.count)
    var cpu = [ProcessorTime](repeating: ProcessorTime(), count: Contestant.allCases.count)
    for round in 0..<rounds {
      let order = round.isMultiple(of: 2) ? Contestant.allCases : Contestant.allCases.reversed()
      for contestant in order {
        let before = ProcessorTime.now()
        seconds[contestant.rawValue] += try timed {
          for _ in 0..<perRound {
            switch contestant {
            case .journal: try journal.append(batch: batch)
            case .sqlite:
              try database.insert(batch, from: sequence + 1)
              sequence += Int64(batchSize)
            case .appending: try appending.commit()
            case .overwriting: try overwriting.commit()
            }
          }
        }
        cpu[contestant.rawValue].add(since: before)
      }
    }
    let timedBatches = perRound * rounds
    let records = Double(timedBatches * batchSize)
    guard try database.count() == Int(records) + batchSize, journal.lastSequence == UInt64(records) + UInt64(batchSize)
    else {
      throw SQLiteFailed(description: "the two stores do not hold the same number of records")
    }
    func rate(_ contestant: Contestant) -> Double { records / seconds[contestant.rawValue] }
    func perBatch(_ contestant: Contestant) -> Double { 1e6 * seconds[contestant.rawValue] / Double(timedBatches) }
    let rows = Contestant.allCases.map { contestant in
      [
        contestant.label(sqliteVersion: String(cString: sqlite3_libversion())),
        format(rate(contestant), decimals: 0), format(perBatch(contestant), decimals: 1),
        format(1e6 * cpu[contestant.rawValue].user / records, decimals: 2),
        format(1e6 * cpu[contestant.rawValue].system / records, decimals: 2),
      ]
    }
    let table = markdownTable(
      [
        "\(format(records, decimals: 0)) records, \(batchSize) per commit, on \(fileSystemName(of: folder.path))",
        "records per second", "µs per commit", "user µs per record", "system µs per record",
      ], rows)
    let ratio = rate(.journal) / rate(.sqlite)
    let floorRatio = rate(.overwriting) / rate(.sqlite)
    return table + """


      Group commit against SQLite: \(format(ratio, decimals: 2))x in records per second \
      (goals: issue 42, at least 1.5x on a disk; issue 25, at least 2x on tmpfs). \
      The journal against the bare overwriting floor: \
      \(format(rate(.journal) / rate(.overwriting), decimals: 2)) of its records per second \
      (goal, issue 42: at least 0.85). In user time, SQLite spends \
      \(format(cpu[Contestant.sqlite.rawValue].user / max(cpu[Contestant.journal.rawValue].user, 1e-9), decimals: 1))x \
      what the journal does per record. The journal against the bare appending floor: \
      \(format(perBatch(.journal) / perBatch(.appending), decimals: 2))x its time per commit. \
      The bare overwriting floor against SQLite: \(format(floorRatio, decimals: 2))x in records per second: \
      a commit with no framing, no checksum and no file length to make durable, which no design that syncs \
      once per batch beats on this file system.
      """
  }

  /// The four that take turns, in the order of the table.
  enum Contestant: Int, CaseIterable {
    case journal, sqlite, appending, overwriting

    func label(sqliteVersion: String) -> String {
      switch self {
      case .journal: "the journal's group commit (`append(batch:)`: frame, CRC, `pwrite`, `fdatasync`)"
      case .sqlite: "SQLite \(sqliteVersion), WAL, `synchronous=FULL`, one transaction per batch"
      case .appending: "floor: the batch's bytes, one `pwrite` extending a file + `fdatasync`"
      case .overwriting: "floor: the batch's bytes, one `pwrite` over space written before + `fdatasync`"
      }
    }
  }

  /// The type of the file system that holds `path`, for the table's heading:
  /// the mount in `/proc/mounts` whose mount point is the longest prefix of it.
  static func fileSystemName(of path: String) -> String {
    guard let mounts = try? String(contentsOfFile: "/proc/mounts", encoding: .utf8) else {
      return "an unknown file system"
    }
    let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    var best: (point: String, type: String)?
    for line in mounts.split(separator: "\n") {
      let fields = line.split(separator: " ")
      guard fields.count >= 3 else { continue }
      // /proc/mounts writes a space in a mount point as \040.
      let point = fields[1].replacingOccurrences(of: "\\040", with: " ")
      let covers = point == "/" || resolved == point || resolved.hasPrefix(point + "/")
      if covers, point.count >= (best?.point.count ?? -1) { best = (point, String(fields[2])) }
    }
    return best?.type ?? "an unknown file system"
  }

  /// A file written a batch at a time with one `pwrite` and one `fdatasync`
  /// each: extending it, or over bytes written (and synced) before.
  final class RawFile {
    private let descriptor: Int32
    private let bytes: [UInt8]
    private var offset = 0

    init(path: String, batchBytes: Int, writtenAhead: Int = 0) throws {
      descriptor = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
      guard descriptor >= 0 else { throw Errno.current }
      bytes = [UInt8](repeating: 7, count: batchBytes)
      if writtenAhead > 0 {
        let zeros = [UInt8](repeating: 0, count: writtenAhead)
        let written = zeros.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        guard written == writtenAhead, fsync(descriptor) == 0 else { throw Errno.current }
      }
    }

    deinit { close(descriptor) }

    /// One batch, durable.
    func commit() throws {
      let written = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, off_t(offset)) }
      guard written == bytes.count, fdatasync(descriptor) == 0 else { throw Errno.current }
      offset += bytes.count
    }
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
