import Foundation
import Testing

/// `make test` runs no benchmark; it checks that the benchmark binary builds and
/// that one tiny iteration of each benchmark runs and reports.
@Test func theBenchmarksRunOneTinyIteration() throws {
  let bench = KioskBinary.url.deletingLastPathComponent().appendingPathComponent("kiosk-bench")
  let run = try KioskBinary(journal: "").run(executable: bench, ["--smoke"])
  #expect(run.status == 0, "\(run.errors)")
  for section in ["## Access cost: one workload, four ways", "## Snapshots", "## Journal", "## linkgen"] {
    #expect(run.output.contains(section), "\(section)")
  }
  #expect(run.output.contains("| (a) generic capabilities, "))
  // The comparison with SQLite names the file system it ran on and measures both floors beside it.
  #expect(run.output.contains("## Group commit against SQLite"))
  #expect(run.output.contains(" per commit, on ") && !run.output.contains("on an unknown file system"))
  #expect(run.output.contains("| floor: the batch's bytes, one `pwrite` extending a file"))
  #expect(run.output.contains("| floor: the batch's bytes, one `pwrite` over space written before"))
  let workload = try KioskBinary(journal: "").run(executable: bench, ["--workload", "a", "--iterations", "10"])
  #expect(workload.status == 0)
}
