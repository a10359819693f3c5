import Foundation
import HeadOffice
import KioskApp
import KioskReports

// `kiosk-hq`: the head office's side of the chain (docs/head-office.md).
//
//   kiosk-hq report [DAY] [--json | --html FILE]
//                           every till's days, the chain's sales by item and its stock at opening and
//                           close (for DAY, or every day: each till's latest day), in lined-up columns;
//                           --json: the same report as data; --html FILE: a page of charts and tables
//   kiosk-hq verify         recompute every shipped day from its rows: counts and money in SQL, then
//                           a replay of its records (digest, totals, sales, stock); list each disagreement
//
// The database is `$KIOSK_HEAD_OFFICE` (a libpq connection string). Exit status:
// 0 done (verify: every day agrees), 64 usage (a connection string that is wrong too), 65 verify found disagreements,
// 69 the head office did not answer, 70 an internal error, 73 the page could not be written.

let usage =
  "usage: kiosk-hq report [DAY] [--json | --html FILE] | kiosk-hq verify   (the database: $KIOSK_HEAD_OFFICE)"

func fail(_ message: String, status: Int32) -> Never {
  FileHandle.standardError.write(Data("kiosk-hq: \(OneLine.escaped(message))\n".utf8))
  exit(status)
}

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.count == 1, ["help", "--help", "-h"].contains(arguments[0]) {
  print(usage)
  exit(0)
}
guard let command = arguments.first, ["report", "verify"].contains(command) else { fail(usage, status: 64) }
// The command line first: a mistake in it is named whatever the environment holds.
let reportOptions = Result { () throws(ReportOptions.Refusal) in try ReportOptions(Array(arguments.dropFirst())) }
if command == "report", case .failure(let refusal) = reportOptions { fail(refusal.message, status: refusal.status) }
if command == "verify", arguments.count != 1 { fail(usage, status: 64) }
guard let conninfo = ProcessInfo.processInfo.environment["KIOSK_HEAD_OFFICE"], !conninfo.isEmpty else {
  fail("the head office's connection string goes in $KIOSK_HEAD_OFFICE", status: 64)
}
let deadlineText = ProcessInfo.processInfo.environment["KIOSK_HEAD_OFFICE_DEADLINE"]
guard let deadlines = PostgresConnection.Deadlines.environment(deadlineText) else {
  fail(
    "KIOSK_HEAD_OFFICE_DEADLINE is the seconds a statement may take, from 0.1 to 3600, not "
      + (deadlineText ?? "").debugDescription, status: 64)
}
var office = PostgresHeadOffice(conninfo: conninfo, deadlines: deadlines)
do {
  switch command {
  case "report":
    guard case .success(let options) = reportOptions else { fail(usage, status: 64) }
    let report = try office.chainReport(day: options.day)
    if let page = options.htmlFile {
      try ReportOptions.write(ChainReportPage(report: report, day: options.day).html, to: page)
      print("wrote \(page): \(report.tills.count) till days, charged \(money(report.charged))")
    } else if options.json {
      print(report.json(day: options.day))
    } else {
      for line in report.textLines { print(line) }
    }
  default:
    let mismatches = try office.verify(audit: HeadOfficeSync.audit)
    for mismatch in mismatches { print(mismatch.description) }
    guard mismatches.isEmpty else {
      fail("\(mismatches.count) disagreement\(mismatches.count == 1 ? "" : "s") in the shipped days", status: 65)
    }
    print("every shipped day agrees with its records")
  }
} catch let error as ReportOptions.Refusal {
  fail(error.message, status: error.status)
} catch let error as HeadOfficeError {
  fail(error.description, status: error.isConfiguration ? 64 : 69)
} catch {
  fail("\(error)", status: 70)
}
