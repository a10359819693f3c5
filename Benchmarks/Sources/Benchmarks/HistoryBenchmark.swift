import DurableStore
import Foundation
import Journal
import KioskApp
import KioskCommands
import Menu
import Payment
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

  /// Opens a till over `tabs` open tabs on the framework's store, as `kiosk`
  /// does, then opens `opens` more through it (`DurableStore<KioskTill>.send`):
  /// callgrind counts the instructions inside the store's step (per call). The
  /// journal ends with a checkpoint, as a till that wrote them as it went
  /// would; what a checkpoint costs is measured apart (`checkpointCost`).
  static func openCost(tabs: Int, opens: Int) throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("history-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("kiosk.journal").path
    try makeJournal(at: path, tabs: tabs)
    let store = try DurableStore<KioskTill>.openTill(at: path)
    try store.checkpoint()
    for index in 0..<opens {
      guard try store.send(.command(.openTab(customer: "Late \(index)"))).outcome.record != nil else {
        preconditionFailure("the store refused an open")
      }
    }
  }

  /// Writes `count` checkpoints of a till over `tabs` open tabs (callgrind
  /// counts the instructions inside the store's `checkpoint()`), and prints
  /// the checkpoint's size and the average size of the records before it, in
  /// bytes: the till writes the next checkpoint only after at least as many
  /// bytes of records, which bounds what checkpoints add to each command.
  static func checkpointCost(tabs: Int, count: Int) throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("history-bench-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("kiosk.journal").path
    try makeJournal(at: path, tabs: tabs)
    let recordsSize = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
    let store = try DurableStore<KioskTill>.openTill(at: path)
    for _ in 0..<count { try store.checkpoint() }
    let recovery = try DurableJournal.read(path: path)
    let size = recovery.lastCheckpoint.map { recovery.payload($0).count } ?? 0
    print("checkpoint-bytes \(size) record-bytes \(recordsSize / (tabs + 1))")
  }

  /// Writes a kiosk's history at `path`: `days` days of about
  /// `recordsPerDay` records each (restocks, then tabs opened, given one item
  /// and settled: tab `n` takes `items[n % items.count]`), every day but the
  /// last closed by the till's store (`closeDay()`), so the closed days are archives
  /// beside the live journal. Group commits make the records fast to write;
  /// the closes are the real ones.
  static func makeHistory(
    at path: String, days: Int, recordsPerDay: Int, items: [Item.ID] = [Item.ID(raw: 1)]
  ) throws {
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
    let name = URL(fileURLWithPath: path).lastPathComponent
    for file in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] where file.hasPrefix(name) {
      try? FileManager.default.removeItem(at: folder.appendingPathComponent(file))
    }
    let chargedAt = Date(timeIntervalSince1970: 1_800_000_000)
    for day in 1...days {
      var records: [KioskRecord] = []
      var nextTab: Int
      do {
        var journal = try DurableJournal(path: path)
        let contents = try KioskReplay.contents(of: journal.recovery)
        nextTab = contents.checkpoint?.state.tabs.nextID ?? 1
        if contents.checkpoint == nil {
          records.append(.initialized(menu: KioskDefaults.menu, stock: KioskDefaults.stock))
        }
        let used = Set(items.flatMap { KioskDefaults.menu.items[$0]?.recipe.keys.map { $0 } ?? [] })
        for ingredient in used.sorted(by: { $0.rawValue < $1.rawValue }) {
          records.append(.restocked(ingredient: ingredient, count: recordsPerDay))
        }
        while records.count + 3 <= recordsPerDay {
          let tab = Tab.ID(raw: nextTab)
          nextTab += 1
          records.append(.opened(tab: tab, customer: "Guest \(tab.raw)"))
          let item = items[tab.raw % items.count]
          records.append(.added(item: item, tab: tab))
          records.append(
            .settled(
              Receipt(
                tab: tab, total: KioskDefaults.menu.items[item]?.price ?? 0, chargedAt: chargedAt,
                reference: "ch_bench_\(tab.raw)")))
        }
        for start in stride(from: 0, to: records.count, by: 10_000) {
          try journal.append(entries: Array(records[start..<min(records.count, start + 10_000)]))
        }
      }
      if day < days { try DurableStore<KioskTill>.openTill(at: path).closeDay() }
    }
  }
}
