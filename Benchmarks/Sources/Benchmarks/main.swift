import Foundation

// `kiosk-bench`: every benchmark, as markdown on standard output.
//
//   kiosk-bench [--smoke] [--manifest codegen.yaml] [--linkgen PATH]   (PATH: the built linkgen, run as a process)
//   kiosk-bench --workload a|b|c|d --iterations N    (one variant, for callgrind)
//   kiosk-bench --open-cost TABS --opens K             (K opens over TABS tabs on the till's store, for callgrind)
//   kiosk-bench --durable-sends K [--codable]         (K sends through a DurableStore, for callgrind)
//   kiosk-bench --make-journal PATH --tabs N           (a journal of N opened tabs)
//   kiosk-bench --make-history PATH --days D --per-day R  (D days of R records, all but the last closed)
//   kiosk-bench --checkpoint-cost TABS --count K       (K checkpoints over TABS tabs, for callgrind)
//   kiosk-bench --head-office RECORDS                  (a day shipped to the head office against COPY)
//   kiosk-bench --chain TILLS --days D --per-day R [--report-screenshot PNG]
//                                                      (TILLS tills synced at once; the chain report checked,
//                                                      its page timed in headless Chromium, and saved as PNG)
//   kiosk-bench --group-commit BATCHES                 (the journal's group commit against SQLite, alone)
//   kiosk-bench --linkgen-commands PATH                (the linkgen commands' table alone, for any linkgen build)

let arguments = Array(CommandLine.arguments.dropFirst())
@MainActor func option(_ name: String) -> String? {
  guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
  return arguments[index + 1]
}

if let letter = option("--workload") {
  guard let variant = AccessVariant(rawValue: letter), let iterations = Int(option("--iterations") ?? "10000") else {
    print("usage: kiosk-bench --workload a|b|c|d --iterations N")
    exit(64)
  }
  blackHole(variant.run(iterations: iterations))
  exit(0)
}

// `kiosk-bench --open-cost TABS --opens K`: one till over TABS tabs, then K opens (for callgrind).
if let tabs = option("--open-cost").flatMap(Int.init) {
  try HistoryBenchmark.openCost(tabs: tabs, opens: Int(option("--opens") ?? "100") ?? 100)
  exit(0)
}

// `kiosk-bench --durable-sends K`: K reminders set through the framework's DurableStore (for callgrind),
// each action written by hand as the Reminders example writes it, or with `--codable` through `Codable`.
if let sends = option("--durable-sends").flatMap(Int.init) {
  BenchReminders.Action.handWritten = !CommandLine.arguments.contains("--codable")
  try DurableSendBenchmark.sendCost(sends: sends)
  exit(0)
}

// `kiosk-bench --group-commit BATCHES`: the journal's group commit against SQLite alone.
if let batches = option("--group-commit").flatMap(Int.init) {
  print(try SQLiteComparison.run(batches: batches))
  exit(0)
}

// `kiosk-bench --make-journal PATH --tabs N`: a journal with N opened tabs (for startup timings).
if let path = option("--make-journal") {
  try HistoryBenchmark.makeJournal(at: path, tabs: Int(option("--tabs") ?? "1000") ?? 1_000)
  exit(0)
}

// `kiosk-bench --make-history PATH --days D --per-day R`: closed days beside a live one (startup against history).
if let path = option("--make-history") {
  try HistoryBenchmark.makeHistory(
    at: path, days: Int(option("--days") ?? "10") ?? 10, recordsPerDay: Int(option("--per-day") ?? "1000") ?? 1_000)
  exit(0)
}

// `kiosk-bench --checkpoint-cost TABS --count K`: K checkpoints of a till over TABS tabs (for callgrind).
if let tabs = option("--checkpoint-cost").flatMap(Int.init) {
  try HistoryBenchmark.checkpointCost(tabs: tabs, count: Int(option("--count") ?? "3") ?? 3)
  exit(0)
}

// `kiosk-bench --linkgen-commands PATH`: only the linkgen commands' table, PATH the linkgen to run (any build).
if let linkgen = option("--linkgen-commands") {
  print(try LinkGenBenchmark.commands(domains: 1_000, worlds: 20, rounds: 5, linkgen: linkgen))
  exit(0)
}

// `kiosk-bench --chain TILLS --days D --per-day R`: only the chain's table (tills synced at once, the report checked).
if let tills = option("--chain").flatMap(Int.init) {
  print(
    try ChainBenchmark.run(
      tills: tills, days: Int(option("--days") ?? "30") ?? 30,
      recordsPerDay: Int(option("--per-day") ?? "1000") ?? 1_000, screenshot: option("--report-screenshot")
    ))
  exit(0)
}

// `kiosk-bench --head-office RECORDS`: only the head office's table (shipping a day against COPY).
if let records = option("--head-office").flatMap(Int.init) {
  print(try HeadOfficeBenchmark.run(records: records, rounds: 3))
  exit(0)
}

let smoke = arguments.contains("--smoke")
let scale = smoke ? 1 : 100

print("## Access cost: one workload, four ways\n")
print(
  "Open a tab, add three items, settle (stock consumed, a mock payment, a fixed clock; the tab leaves the open tabs).\n"
)
let access = AccessBenchmark.run(iterations: 3_000 * scale, repeats: smoke ? 1 : 7)
print(access.table)
print("\nGoal: (a)/(b) at most 1.05. Measured: \(format(access.ratio, decimals: 3)).\n")

print("## Snapshots\n")
print(
  SnapshotBenchmark.run(sizes: smoke ? [10, 100] : [1_000, 10_000, 100_000, 1_000_000], iterations: 1_000 * scale))
print("\nGoal: flat (1M / 1k at most 2).\n")

print("## Journal\n")
print(try JournalBenchmark.run(records: smoke ? 20 : 2_000, replayRecords: smoke ? 1_000 : 1_000_000))
print()

print("## Group commit against SQLite\n")
print(try SQLiteComparison.run(batches: smoke ? 10 : 2_000))
print()

print("## linkgen\n")
print(try LinkGenBenchmark.run(sizes: smoke ? [10] : [10, 100, 1_000, 10_000], realManifest: option("--manifest")))
print()
print("## linkgen: the commands, 1,000 domains × 20 worlds\n")
print(
  try LinkGenBenchmark.commands(
    domains: smoke ? 30 : 1_000, worlds: smoke ? 2 : 20, rounds: smoke ? 1 : 5, linkgen: option("--linkgen")))
print(
  "\nGoals (issue 25): `generate` at most 3x `cp -r` of its output (on tmpfs in the issue; here both write to"
    + " the same disk as the rest of this report), `check` at most 1.5x `generate`.\n")
print("## The head office: shipping a day\n")
if FileManager.default.fileExists(atPath: "/usr/bin/psql") {
  print(try HeadOfficeBenchmark.run(records: smoke ? 1_000 : 200_000, rounds: smoke ? 1 : 3))
  print("\n## The head office: a chain of tills synced at once\n")
  print(
    try ChainBenchmark.run(
      tills: smoke ? 2 : 10, days: smoke ? 2 : 30, recordsPerDay: smoke ? 30 : 1_000,
      screenshot: option("--report-screenshot")))
} else {
  print("PostgreSQL is not installed (`make setup`); skipped.")
}
print()
print("## linkgen: pathological shapes against linear ones")
print()
print(try LinkGenBenchmark.pathological(smoke: smoke))
print("\nGoal: 1,000 domains under 0.5 s, growth linear.")
