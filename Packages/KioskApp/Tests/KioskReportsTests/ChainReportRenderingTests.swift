import Foundation
import HeadOffice
import KioskReports
import Testing

/// Two tills: north with three days (a refund on day 2), south with day 2 set
/// aside (never shipped), so the head office holds 5 of 6 till days.
let chain = ChainReport(
  tills: [
    .init(till: "north", day: 1, charged: 22.5, refunded: 0, settledTabs: 5, records: 22),
    .init(till: "north", day: 2, charged: 12, refunded: 4.5, settledTabs: 2, records: 11),
    .init(till: "north", day: 3, charged: 7.5, refunded: 0, settledTabs: 2, records: 10),
    .init(till: "south", day: 1, charged: 1_034.25, refunded: 0, settledTabs: 120, records: 480),
    .init(till: "south", day: 3, charged: 3, refunded: 0, settledTabs: 1, records: 5),
  ],
  items: [
    .init(item: 1, name: "Latte", count: 230, total: 1_035),
    .init(item: 4, name: "Espresso", count: 15, total: 45.75),
  ],
  stock: [.init(ingredient: "cup", opening: 400, closing: 152), .init(ingredient: "milk", opening: 90, closing: 0)])

@Test func theTextReportLinesUpItsColumnsNumbersToTheRight() {
  #expect(
    chain.textLines == [
      "till   day  records  settled tabs  charged  refunded",
      "north    1       22             5    22.50      0.00",
      "north    2       11             2    12.00      4.50",
      "north    3       10             2     7.50      0.00",
      "south    1      480           120  1034.25      0.00",
      "south    3        5             1     3.00      0.00",
      "chain: 5 till days, charged 1079.25, refunded 4.50",
      "",
      "item  name      sold    total",
      "   1  Latte      230  1035.00",
      "   4  Espresso    15    45.75",
      "",
      "ingredient  opening  close",
      "cup             400    152",
      "milk             90      0",
    ])
}

@Test func aTextTableIsAsWideAsItsWidestCellAndEndsNoLineWithASpace() {
  let table = TextTable(
    headings: ["name", "n", "note"], alignments: [.left, .right, .left],
    rows: [["a", "1000", ""], ["long name", "2", "x"]])
  #expect(table.lines == ["name          n  note", "a          1000", "long name     2  x"])
}

@Test func theJSONReportCarriesTheTextsFiguresAsData() throws {
  let text = chain.json(day: nil)
  #expect(!text.contains("\n"))
  let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
  #expect(object["charged"] as? String == "1079.25")
  #expect(object["refunded"] as? String == "4.50")
  #expect(object["tillDays"] as? Int == 5 && object["tillCount"] as? Int == 2)
  #expect(object["day"] == nil)
  let tills = try #require(object["tills"] as? [[String: Any]])
  #expect(tills.map { $0["charged"] as? String } == ["22.50", "12.00", "7.50", "1034.25", "3.00"])
  #expect(tills[1]["refunded"] as? String == "4.50" && tills[3]["settledTabs"] as? Int == 120)
  let items = try #require(object["items"] as? [[String: Any]])
  #expect(items.map { $0["total"] as? String } == ["1035.00", "45.75"])
  let stock = try #require(object["stock"] as? [[String: Any]])
  #expect(stock.map { $0["closing"] as? Int } == [152, 0])
  #expect(try JSONSerialization.jsonObject(with: Data(chain.json(day: 3).utf8)) as? [String: Any] != nil)
  #expect(chain.json(day: 3).contains("\"day\":3"))
}

/// The `<rect class="bar …">`s of one chart, as (series, label, value).
func bars(in html: String, chart: String) throws -> [(series: String, label: String, value: String)] {
  let start = try #require(html.range(of: "<svg id=\"\(chart)-chart\""))
  let end = try #require(html.range(of: "</svg>", range: start.upperBound..<html.endIndex))
  let svg = html[start.lowerBound..<end.upperBound]
  return svg.matches(of: /<rect class="bar ([a-z]+)" data-label="([^"]*)" data-value="([^"]*)"/).map {
    (String($0.1), String($0.2), String($0.3))
  }
}

@Test func everyChartsBarsCarryTheReportsFiguresAndAMissingDayIsAnEmptyBox() throws {
  let html = ChainReportPage(report: chain, day: nil).html
  let tillDays = try bars(in: html, chart: "till-days")
  #expect(
    tillDays.map { "\($0.series) \($0.label) \($0.value)" } == [
      "charged north, day 1 22.50", "charged north, day 2 12.00", "charged north, day 3 7.50",
      "charged south, day 1 1034.25", "missing south, day 2 none", "charged south, day 3 3.00",
    ])
  let chainDays = try bars(in: html, chart: "chain-days")
  #expect(
    chainDays.map { "\($0.series) \($0.label) \($0.value)" } == [
      "charged day 1 1056.75", "refunded day 1 0.00", "charged day 2 12.00", "refunded day 2 4.50",
      "charged day 3 10.50", "refunded day 3 0.00",
    ])
  #expect(
    try bars(in: html, chart: "items").map { "\($0.label) \($0.value)" } == ["Latte 1035.00", "Espresso 45.75"])
  #expect(
    try bars(in: html, chart: "stock").map { "\($0.series) \($0.label) \($0.value)" } == [
      "opening cup 400", "closing cup 152", "opening milk 90", "closing milk 0",
    ])
  // Labels beside the bars say the same figures; the summary says the chain's.
  for label in ["1035.00 · 230 sold", "152 at close", "90 at opening", ">1056.75<", ">42.00<", ">1037.25<"] {
    #expect(html.contains(label), "\(label)")
  }
  #expect(html.contains("<b>1079.25</b>") && html.contains("<b>4.50</b>") && html.contains("<b>1074.75</b>"))
}

@Test func theTallestBarFillsItsRowAndTheOthersAreInProportion() throws {
  let html = ChainReportPage(report: chain, day: nil).html
  let heights = html.matches(
    of:
      /data-label="(north|south), day \d" data-value="[0-9.]+" x="[0-9.]+" y="[0-9.]+" width="[0-9.]+" height="([0-9.]+)"/
  )
  .map { Double(String($0.2)) ?? -1 }
  #expect(heights.count == 5)
  #expect(heights.max() == 44, "south's day 1, the largest, fills the row's 44 units")
  #expect(abs(heights[0] - 44 * 22.5 / 1_034.25) < 0.06, "north's day 1 in proportion")
}

@Test func thePageIsSelfContainedAndTheSameReportGivesTheSameBytes() {
  let html = ChainReportPage(report: chain, day: nil).html
  for reference in ["http:", "https:", "src=", "href=", "url(", "@import", "<script", "<link"] {
    #expect(!html.contains(reference), "the page must fetch nothing: \(reference)")
  }
  #expect(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\">"))
  #expect(html == ChainReportPage(report: chain, day: nil).html)
  #expect(ChainReportPage(report: chain, day: 2).html.contains("<title>Chain report: day 2</title>"))
}

@Test func namesFromTheTillsAreTextNeverMarkup() {
  var hostile = chain
  hostile.tills[0].till = "<script>alert(\"x\")</script>"
  hostile.items[0].name = "Latte' onmouseover='x"
  let html = ChainReportPage(report: hostile, day: nil).html
  #expect(!html.contains("<script>") && !html.contains("' onmouseover='"))
  #expect(html.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;"))
  #expect(html.contains("Latte&#39; onmouseover=&#39;x"))
}

@Test func anEmptyHeadOfficeGivesAPageThatSaysSo() {
  let html = ChainReportPage(report: ChainReport(tills: [], items: []), day: 4).html
  #expect(html.contains("The head office holds no day 4 yet."))
  #expect(!html.contains("<svg"))
}

@Test func aDayThatRefundedMoreThanItChargedStaysInsideTheChart() throws {
  let report = ChainReport(
    tills: [.init(till: "north", day: 5, charged: 5, refunded: 20, settledTabs: 1, records: 9)], items: [])
  let html = ChainReportPage(report: report, day: 5).html
  let refunded = try #require(
    html.firstMatch(of: /class="bar refunded" data-label="day 5" data-value="20.00" x="[0-9.]+" y="([0-9.-]+)"/))
  #expect((Double(String(refunded.1)) ?? -1) >= 0, "the refunded bar starts inside the chart")
  #expect(html.contains(">20.00</text>"), "the scale's top is the larger of the two")
}

@Test func thePageGrowsWithTheDaysHeldNotWithTheSpanOfTheirNumbers() throws {
  let report = ChainReport(
    tills: [
      .init(till: "north", day: 1, charged: 5, refunded: 0, settledTabs: 1, records: 9),
      .init(till: "north", day: 100_000, charged: 7, refunded: 0, settledTabs: 1, records: 9),
    ], items: [])
  let html = ChainReportPage(report: report, day: nil).html
  #expect(try bars(in: html, chart: "till-days").count == 2)
  #expect(try bars(in: html, chart: "chain-days").count == 4)
  #expect(html.utf8.count < 20_000, "\(html.utf8.count) bytes")
}

@Test func aLongNameIsShortenedOnTheChartAndWholeInItsTitleAndTable() {
  let name = "The Very Long Name Of A Seasonal Drink"
  var report = chain
  report.items[0].name = name
  let html = ChainReportPage(report: report, day: nil).html
  #expect(html.contains(">The Very Long Name Of…</text>"))
  #expect(html.contains("data-label=\"\(name)\"") && html.contains("<th scope=\"row\">\(name)</th>"))
}

@Test func manyDaysDropTheFiguresAboveTheBarsButKeepThemInTitlesAndTable() throws {
  let lines = (1...365).map {
    ChainReport.TillLine(till: "north", day: $0, charged: Decimal($0), refunded: 0, settledTabs: 1, records: 3)
  }
  let html = ChainReportPage(report: ChainReport(tills: lines, items: []), day: nil).html
  #expect(try bars(in: html, chart: "chain-days").count == 730)
  #expect(!html.contains("rotate(-90"), "no room for a figure above a bar a few units wide")
  #expect(html.contains("data-label=\"day 365\" data-value=\"365.00\""))
}
