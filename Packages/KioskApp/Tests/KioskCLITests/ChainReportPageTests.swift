import Foundation
import PostgresTestServer
import Testing
import _ServiceLinkerTestSupport

// `kiosk-hq report --html` end to end: tills made by `kiosk shell`, one with
// refunds, one with a day set aside; synced into a real PostgreSQL server; the
// page rendered by headless Chromium, its DOM read back and checked against
// `kiosk-hq report --json`.

/// The browser, when `make setup` could install it.
let browser = HeadlessChromium()

/// `amount` with two decimals, as the till prints money: for sums the test makes itself.
func twoDecimals(_ amount: Decimal) -> String {
  var scaled = amount * 100
  var rounded = Decimal()
  NSDecimalRound(&rounded, &scaled, 0, .plain)
  let cents = NSDecimalNumber(decimal: rounded).intValue
  return "\(cents / 100).\(String(format: "%02d", cents % 100))"
}

/// Each `<rect class="bar …">` of one chart in a DOM, as "series label value".
func chartBars(_ dom: String, _ chart: String) throws -> [String] {
  let start = try #require(dom.range(of: "<svg id=\"\(chart)-chart\""), "no chart '\(chart)' in the DOM")
  let end = try #require(dom.range(of: "</svg>", range: start.upperBound..<dom.endIndex))
  return dom[start.lowerBound..<end.upperBound].matches(
    of: /<rect class="bar ([a-z]+)" data-label="([^"]*)" data-value="([^"]*)"/
  ).map { "\($0.1) \($0.2) \($0.3)" }
}

@Test(
  .enabled(if: browser != nil, "chromium is not installed: 'make setup' installs it where Debian's packages can be had")
)
func theReportPageShowsInABrowserEveryFigureTheReportHasWithRefundsAndASetAsideDay() throws {
  let chromium = try #require(browser)
  let server = try ThrowawayPostgres.shared.get()
  let database = try server.freshDatabase()
  // north: day 1 a latte settled, refunded by undo, settled again, and an espresso; day 2 a latte.
  let northJournal = try TemporaryJournal()
  let north = KioskBinary(journal: northJournal.path, owner: northJournal)
  let made = try north(
    "shell",
    input: "open Ada\nadd 1 latte\nsettle 1\nundo\nsettle 1\nopen Bob\nadd 2 espresso\nsettle 2\nclose-day\n"
      + "open Cy\nadd 3 latte\nsettle 3\nclose-day\n")
  #expect(made.status == 0, "\(made.errors)")
  #expect(try north("sync", environment: headOffice(server, database: database, till: "north")).status == 0)
  // south: three days, the second damaged and set aside, so never shipped.
  let (southJournal, south) = try tillWithClosedDays(3)
  let archive = URL(fileURLWithPath: southJournal.path + ".day-0002")
  var bytes = try Data(contentsOf: archive)
  bytes[bytes.count / 2] ^= 0x20
  try bytes.write(to: archive)
  #expect(try south("set-aside", "2").status == 0)
  let synced = try south("sync", environment: headOffice(server, database: database, till: "south"))
  #expect(synced.status == 0, "\(synced.errors)")

  let json = try kioskHQ("report", "--json", server: server, database: database)
  #expect(json.status == 0, "\(json.errors)")
  let report = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
  let tills = try #require(report["tills"] as? [[String: Any]])
  #expect(tills.map { "\($0["till"] ?? "") \($0["day"] ?? "")" } == ["north 1", "north 2", "south 1", "south 3"])
  #expect(report["refunded"] as? String == "4.50")

  let folder = try TemporaryDirectory(prefix: "chain-page")
  let page = folder.url.appendingPathComponent("chain.html")
  let wrote = try kioskHQ("report", "--html", page.path, server: server, database: database)
  #expect(wrote.status == 0, "\(wrote.errors)")
  let dom = try chromium.dumpDOM(of: page)
  #expect(dom.contains("<h1>Chain report: every day</h1>"), "the browser built the page")

  // Money per till per day: a bar per till day the head office holds, an empty box for south's day 2.
  var expected = tills.map { "charged \($0["till"] ?? ""), day \($0["day"] ?? "") \($0["charged"] ?? "")" }
  expected.insert("missing north, day 3 none", at: 2)
  expected.insert("missing south, day 2 none", at: 4)
  #expect(try chartBars(dom, "till-days") == expected)
  // The chain's daily total: the tills' lines summed by day, charged and refunded.
  let days = Set(tills.compactMap { $0["day"] as? Int }).sorted()
  let daily = days.flatMap { day -> [String] in
    let lines = tills.filter { $0["day"] as? Int == day }
    let sum = { (key: String) in
      twoDecimals(lines.reduce(Decimal(0)) { $0 + (Decimal(string: $1[key] as? String ?? "") ?? 0) })
    }
    return ["charged day \(day) \(sum("charged"))", "refunded day \(day) \(sum("refunded"))"]
  }
  #expect(try chartBars(dom, "chain-days") == daily)
  #expect(daily.contains("refunded day 1 4.50"))
  // Sales by item and stock, bar by bar and label by label.
  let items = try #require(report["items"] as? [[String: Any]])
  #expect(try chartBars(dom, "items") == items.map { "sales \($0["name"] ?? "") \($0["total"] ?? "")" })
  for item in items { #expect(dom.contains(">\(item["total"] ?? "") · \(item["sold"] ?? "") sold<")) }
  let stock = try #require(report["stock"] as? [[String: Any]])
  #expect(
    try chartBars(dom, "stock")
      == stock.flatMap {
        [
          "opening \($0["ingredient"] ?? "") \($0["opening"] ?? "")",
          "closing \($0["ingredient"] ?? "") \($0["closing"] ?? "")",
        ]
      })
  for line in stock { #expect(dom.contains(">\(line["closing"] ?? "") at close<")) }
  // The summary and the tables say the same money.
  #expect(dom.contains("<b>\(report["charged"] ?? "")</b>") && dom.contains("<b>4.50</b>"))
  for till in tills { #expect(dom.contains("<td class=\"n\">\(till["charged"] ?? "")</td>")) }

  let screenshot = folder.url.appendingPathComponent("chain.png")
  try chromium.screenshot(of: page, to: screenshot)
  let png = try Data(contentsOf: screenshot)
  #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "a PNG")
  #expect(png.count > 10_000, "a page of charts, not a blank one (\(png.count) bytes)")
}

@Test func theReportPageIsWrittenWholeOrNotAtAllAndABadCommandLineIs64() throws {
  let server = try ThrowawayPostgres.shared.get()
  let database = try server.freshDatabase()
  let missing = "/nonexistent-folder-\(UUID().uuidString)/chain.html"
  let refused = try kioskHQ("report", "--html", missing, server: server, database: database)
  #expect(refused.status == 73)
  #expect(refused.errors.hasPrefix("kiosk-hq: could not write '\(missing)': "), "\(refused.errors)")
  #expect(!FileManager.default.fileExists(atPath: missing))
  for arguments in [["report", "--html"], ["report", "--json", "--html", "x.html"], ["report", "1", "2"]] {
    let run = try kioskHQ(arguments, server: server, database: database)
    #expect(run.status == 64, "\(arguments)")
    #expect(run.errors.hasPrefix("kiosk-hq: "))
  }
}
