import Foundation
import Journal
import JournalIO

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The journal against the raw system calls, on the same bytes, in one run.
enum JournalBenchmark {
  /// The bytes of an `added` record, as a journal of format 3 holds them (its
  /// canonical form): what every journal benchmark (and the comparison with
  /// SQLite) writes.
  static let addedPayload = Array(#"{"added":{"item":1,"tab":42}}"#.utf8)

  static func run(records: Int, replayRecords: Int) throws -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("journal-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let payload = addedPayload

    // Per-command durability: our append (frame, CRC, pwrite, fdatasync) against
    // a raw write + fdatasync loop of the same framed size, in alternating rounds
    // so that the disk's mood hits both alike.
    let frameSize = payload.count + JournalFormat.frameSize
    let rawDescriptor = open(folder.appendingPathComponent("raw").path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard rawDescriptor >= 0 else { throw Errno.current }
    defer { close(rawDescriptor) }
    // Group commit (64 records per sync) takes its turn in the same rounds,
    // so a slow stretch of the shared disk hits all three alike.
    var log = try DurableJournal(path: folder.appendingPathComponent("single.journal").path)
    var grouped = try DurableJournal(path: folder.appendingPathComponent("group.journal").path)
    let batch = [[UInt8]](repeating: payload, count: 64)
    var raw = 0.0
    var single = 0.0
    var group = 0.0
    let rounds = 10
    // One untimed write each first. Without it, a trace showed 171 ms of CPU
    // and no system call before the first batch's write (most likely malloc
    // consolidating the small blocks the benchmarks before this one freed, on
    // the run's first 4 KiB allocation), and the first round of group commit
    // was charged for it: the table read a tenth of its rate.
    _ = try rawSyncLoop(descriptor: rawDescriptor, recordSize: frameSize, count: 1)
    try log.append(payload)
    try grouped.append(batch: batch)
    let batchesPerRound = max(records * 4 / 64 / rounds, 1)
    for _ in 0..<rounds {
      raw += try rawSyncLoop(descriptor: rawDescriptor, recordSize: frameSize, count: records / rounds)
      single += try timed { for _ in 0..<(records / rounds) { try log.append(payload) } }
      group += try timed { for _ in 0..<batchesPerRound { try grouped.append(batch: batch) } }
    }
    let batches = batchesPerRound * rounds
    let singleRate = Double(records / rounds * rounds) / single
    let groupRate = Double(batches * 64) / group

    // Replay: open (read, check every CRC, keep every payload) against a raw
    // sequential read of the same file.
    let replayPath = folder.appendingPathComponent("replay.journal").path
    do {
      var big = try DurableJournal(path: replayPath)
      var remaining = replayRecords
      while remaining > 0 {
        let count = min(remaining, 4096)
        try big.append(batch: [[UInt8]](repeating: payload, count: count))
        remaining -= count
      }
    }
    var replayBest = Double.infinity
    var readBest = Double.infinity
    for _ in 0..<3 {
      readBest = min(readBest, timed { blackHole(FileManager.default.contents(atPath: replayPath)!.count) })
      replayBest = min(
        replayBest,
        try timed {
          let opened = try DurableJournal(path: replayPath)
          precondition(opened.recovery.count == replayRecords)
        })
    }
    let replayRate = Double(replayRecords) / replayBest
    let readRate = Double(replayRecords) / readBest

    return markdownTable(
      ["measure", "journal", "baseline", "ratio", "goal"],
      [
        [
          "per-command append + `fdatasync` (µs per record)", format(1e6 / singleRate),
          format(1e6 * raw / Double(records / rounds * rounds)),
          format(single / raw, decimals: 2) + " (journal / raw write + fdatasync)",
          "≤ 1.2",
        ],
        [
          "group commit, 64 per sync (records/s)", format(groupRate, decimals: 0), format(singleRate, decimals: 0),
          format(groupRate / singleRate, decimals: 1) + "x (64 per sync / 1 per sync)", "≥ 20x",
        ],
        [
          "replay on open, \(format(Double(replayRecords), decimals: 0)) records (records/s)",
          format(replayRate, decimals: 0),
          format(readRate, decimals: 0), format(replayRate / readRate, decimals: 2) + " (replay / raw read)",
          "≥ 1,000,000 records/s",
        ],
      ])
  }

  /// `write` + `fdatasync` of `recordSize` bytes, `count` times; seconds.
  static func rawSyncLoop(descriptor: Int32, recordSize: Int, count: Int) throws -> Double {
    let bytes = [UInt8](repeating: 7, count: recordSize)
    return try timed {
      for _ in 0..<count {
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == recordSize, fdatasync(descriptor) == 0 else { throw Errno.current }
      }
    }
  }
}
