import Dispatch
import Foundation
import HeadOffice
import KioskApp
import Menu
import PostgresTestServer
import Synchronization

/// A chain of tills synced at once into one head office: the sync's
/// throughput, and whether the chain's report is exactly the sum of the
/// tills' own Z reports (issue 27's second goal).
enum ChainBenchmark {
  /// What went wrong: the chain's report and the tills' Z reports disagree, or a sync stopped.
  struct Disagreement: Error, CustomStringConvertible {
    var description: String
  }

  /// `tills` tills of `days` closed days of about `recordsPerDay` records each
  /// (tabs of a latte, an espresso or a cold brew, in turn), each synced by
  /// its own thread and connection at the same moment, into one fresh database.
  @MainActor static func run(tills: Int, days: Int, recordsPerDay: Int) throws -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kiosk-chain-\(getpid())").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let journals = (0..<tills).map { "\(folder)/till-\($0).journal" }
    let items = [1, 4, 5].map { Item.ID(raw: $0) }
    for journal in journals {
      try HistoryBenchmark.makeHistory(at: journal, days: days + 1, recordsPerDay: recordsPerDay, items: items)
    }

    let server = try ThrowawayPostgres()
    defer { server.remove() }
    let conninfo = server.conninfo(database: try server.freshDatabase())
    // The tables exist before the tills race, as at a head office that has run before.
    var office = PostgresHeadOffice(conninfo: conninfo)
    _ = try office.heldDays(of: "till-0")

    let outcomes = Mutex<[String]>([])
    let synced = try timed {
      DispatchQueue.concurrentPerform(iterations: tills) { index in
        var world = HeadOfficeWorld(conninfo: conninfo)
        do {
          let summary = try HeadOfficeSync.run(journal: journals[index], till: "till-\(index)", world: &world)
          if summary.shipped.count != days {
            outcomes.withLock { $0.append("till-\(index) shipped \(summary.shipped.count) of \(days) days") }
          }
        } catch {
          outcomes.withLock { $0.append("till-\(index): \(error)") }
        }
      }
    }
    if let failure = outcomes.withLock({ $0.first }) { throw Disagreement(description: failure) }

    var report = ChainReport(tills: [], items: [])
    let reported = try timed { report = try office.chainReport() }
    let expected = try sumOfZReports(journals: journals, days: days)
    try compare(report, expected)
    var mismatches: [DayMismatch] = []
    let verified = try timed { mismatches = try office.verify(audit: HeadOfficeSync.audit) }
    if let mismatch = mismatches.first { throw Disagreement(description: "verify: \(mismatch)") }
    let records = report.tills.reduce(0) { $0 + $1.records }
    let rows = [
      [
        "\(tills) tills × \(days) days synced at once", format(synced * 1e3),
        format(Double(records) / synced, decimals: 0),
      ],
      ["the chain's report (`kiosk-hq report`'s queries)", format(reported * 1e3), "—"],
      [
        "`kiosk-hq verify`: every day checked in SQL, then read back and replayed", format(verified * 1e3),
        format(Double(records) / verified, decimals: 0),
      ],
    ]
    return markdownTable(["\(format(Double(records), decimals: 0)) records", "ms", "records per second"], rows)
      + "\n\nThe chain's report equals the sum of the tills' \(tills * days) Z reports exactly: charged "
      + "\(report.charged), refunded \(report.refunded), sales of \(report.items.count) items and the stock at each "
      + "till's latest close (goal, issue 27: equal); `verify` finds every day in agreement."
  }

  /// The chain's report as the tills see it: each closed day's Z report,
  /// rebuilt from its archive, summed by day, by item, and at each till's last close.
  static func sumOfZReports(journals: [String], days: Int) throws -> ChainReport {
    var lines: [ChainReport.TillLine] = []
    var items: [Int: ChainReport.ItemLine] = [:]
    var stock: [String: Int] = [:]
    for (index, journal) in journals.enumerated() {
      for day in 1...days {
        var records = 0
        let z = try ZReport.build(
          path: KioskSegments.archivePath(of: journal, day: day), each: { _, _ in records += 1 })
        lines.append(
          ChainReport.TillLine(
            till: "till-\(index)", day: day, charged: z.charged, refunded: z.refunded, settledTabs: z.settledTabs,
            records: records))
        for sale in z.sales {
          items[sale.item.raw, default: .init(item: sale.item.raw, name: sale.name, count: 0, total: 0)].count +=
            sale.count
          items[sale.item.raw]!.total += sale.total
        }
        if day == days {
          for (ingredient, units) in z.closingStock.units { stock[ingredient.rawValue, default: 0] += units }
        }
      }
    }
    return ChainReport(
      tills: lines.sorted { ($0.till, $0.day) < ($1.till, $1.day) },
      items: items.values.sorted { $0.item < $1.item },
      stock: stock.map { ChainReport.StockLine(ingredient: $0.key, closing: $0.value) }.sorted {
        $0.ingredient < $1.ingredient
      })
  }

  /// Throws the first line on which the head office's report and the tills' sums differ.
  static func compare(_ report: ChainReport, _ expected: ChainReport) throws {
    guard report.tills.count == expected.tills.count else {
      throw Disagreement(description: "\(report.tills.count) till days reported, \(expected.tills.count) closed")
    }
    for (line, wanted) in zip(report.tills, expected.tills) where line != wanted {
      throw Disagreement(description: "the head office reports \(line), the till's Z report says \(wanted)")
    }
    guard report.items == expected.items else {
      throw Disagreement(description: "sales by item: \(report.items) against the Z reports' \(expected.items)")
    }
    guard report.stock == expected.stock else {
      throw Disagreement(description: "stock at close: \(report.stock) against the Z reports' \(expected.stock)")
    }
  }
}
