import Foundation
import Journal
import KioskApp
import Menu
import Tabs

/// Costs against history: what a command costs with many tabs open, and what
/// opening a till costs with a long journal. Driven by `scripts/bench.sh`,
/// which measures these runs with callgrind (instructions) and with the
/// wall clock and peak RSS of a whole `kiosk board`.
@MainActor
enum HistoryBenchmark {
  /// Writes a journal at `path`: the first record, then `tabs` opened tabs,
  /// with group commits of 10,000 records (the fast way to make history).
  static func makeJournal(at path: String, tabs: Int) throws {
    try? FileManager.default.removeItem(atPath: path)
    try? FileManager.default.removeItem(atPath: path + ".processor")
    var journal = try DurableJournal(path: path)
    try journal.append(KioskRecord.initialized(menu: KioskDefaults.menu, stock: KioskDefaults.stock))
    var next = 1
    while next <= tabs {
      let batch = (next...min(tabs, next + 9_999)).map {
        KioskRecord.opened(tab: Tab.ID(raw: $0), customer: "Guest \($0)")
      }
      try journal.append(entries: batch)
      next += batch.count
    }
  }

  /// Opens a till over `tabs` open tabs, then opens `opens` more through the
  /// shell: callgrind counts the instructions inside `openTab` (per call).
  static func openCost(tabs: Int, opens: Int) throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("history-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("kiosk.journal").path
    try makeJournal(at: path, tabs: tabs)
    let shell = try KioskShell(journal: try DurableJournal(path: path))
    for index in 0..<opens { _ = try shell.openTab(for: "Late \(index)") }
  }
}
