import Foundation
import HeadOffice
import KioskApp

// `kiosk-hq`: the head office's side of the chain (docs/head-office.md).
//
//   kiosk-hq report [DAY]   every till's days, the chain's sales by item and its stock at close
//                           (for DAY, or every day: stock at each till's latest close)
//   kiosk-hq verify         recompute every shipped day from its rows: counts and money in SQL, then
//                           a replay of its records (digest, totals, sales, stock); list each disagreement
//
// The database is `$KIOSK_HEAD_OFFICE` (a libpq connection string). Exit status:
// 0 done (verify: every day agrees), 64 usage, 65 verify found disagreements,
// 69 the head office did not answer.

let usage = "usage: kiosk-hq report [DAY] | kiosk-hq verify   (the database: $KIOSK_HEAD_OFFICE)"

func fail(_ message: String, status: Int32) -> Never {
  FileHandle.standardError.write(Data("kiosk-hq: \(message)\n".utf8))
  exit(status)
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard let command = arguments.first, ["report", "verify"].contains(command) else { fail(usage, status: 64) }
guard let conninfo = ProcessInfo.processInfo.environment["KIOSK_HEAD_OFFICE"], !conninfo.isEmpty else {
  fail("the head office's connection string goes in $KIOSK_HEAD_OFFICE", status: 64)
}
var office = PostgresHeadOffice(conninfo: conninfo)
do {
  switch command {
  case "report":
    guard arguments.count <= 2 else { fail(usage, status: 64) }
    let day = try arguments.dropFirst().first.map { text throws(HeadOfficeError) -> Int in
      guard let day = Int(text), day >= 1 else { fail("DAY is a day's number, from 1, not '\(text)'", status: 64) }
      return day
    }
    let report = try office.chainReport(day: day)
    print("till  day  records  settled tabs  charged  refunded")
    for line in report.tills {
      print(
        "\(line.till)  \(line.day)  \(line.records)  \(line.settledTabs)  \(money(line.charged))  \(money(line.refunded))"
      )
    }
    print(
      "chain: \(report.tills.count) till days, charged \(money(report.charged)), refunded \(money(report.refunded))")
    print("item  name  sold  total")
    for item in report.items { print("\(item.item)  \(item.name)  \(item.count)  \(money(item.total))") }
    print("ingredient  units at close")
    for line in report.stock { print("\(line.ingredient)  \(line.closing)") }
  default:
    guard arguments.count == 1 else { fail(usage, status: 64) }
    let mismatches = try office.verify(audit: HeadOfficeSync.audit)
    for mismatch in mismatches { print(mismatch.description) }
    guard mismatches.isEmpty else {
      fail("\(mismatches.count) disagreement\(mismatches.count == 1 ? "" : "s") in the shipped days", status: 65)
    }
    print("every shipped day agrees with its records")
  }
} catch {
  fail(error.description, status: error == .notConfigured ? 64 : 69)
}
