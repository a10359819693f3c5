import Foundation
import HeadOffice
import KioskApp

/// The chain's report as one self-contained HTML page (`kiosk-hq report
/// --html FILE`): inline SVG charts of money per till per day, the chain's
/// daily total, sales by item and stock at close against opening, each with
/// the same figures as an accessible table under it. CSS is in the page and
/// nothing is fetched, so it can be mailed or opened offline. Every figure is
/// the till's `money()` text or a whole count, the ones the text report prints.
/// The same report gives the same bytes.
public struct ChainReportPage: Sendable {
  /// The report drawn.
  public var report: ChainReport
  /// The day it covers, or nil for every day.
  public var day: Int?

  /// The page of `report`, for day `day` or every day.
  public init(report: ChainReport, day: Int?) {
    self.report = report
    self.day = day
  }

  /// The whole page.
  public var html: String {
    let charts = ChainCharts(report: report)
    let scope = day.map { "day \($0)" } ?? "every day"
    let kept = report.charged - report.refunded
    let summary = [
      ("tills", "\(charts.tills.count)"), ("till days", "\(report.tills.count)"), ("charged", money(report.charged)),
      ("refunded", money(report.refunded)), ("kept", money(kept)),
    ]
    .map { "<div class=\"figure\" data-figure=\"\($0.0)\"><span>\($0.0)</span><b>\(Markup.escaped($0.1))</b></div>" }
    .joined()
    var sections: [String] = []
    if report.tills.isEmpty {
      sections.append("<p class=\"empty\">The head office holds no day\(day.map { " \($0)" } ?? "") yet.</p>")
    } else {
      sections.append(section(charts.tillDays, table: tillDaysTable))
      sections.append(section(charts.chainDays, table: chainDaysTable(charts)))
      sections.append(section(charts.items, table: itemsTable))
      sections.append(section(charts.stock, table: stockTable))
    }
    return """
      <!DOCTYPE html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <title>Chain report: \(scope)</title>
      <style>\(Self.style)</style>
      </head>
      <body>
      <header><h1>Chain report: \(scope)</h1><div class="summary">\(summary)</div></header>
      \(sections.joined(separator: "\n"))
      </body>
      </html>

      """
  }

  /// A chart, its heading, and its table.
  private func section(_ chart: ChainCharts.Chart, table: String) -> String {
    "<section id=\"\(chart.id)\"><h2>\(Markup.escaped(chart.title))</h2>\n<figure>\(chart.svg)</figure>\n\(table)</section>"
  }

  /// An HTML table: a caption, column headings, rows; `numeric` columns align right.
  private func table(caption: String, headings: [String], numeric: Set<Int>, rows: [[String]]) -> String {
    let head = headings.enumerated().map { index, heading in
      "<th scope=\"col\"\(numeric.contains(index) ? " class=\"n\"" : "")>\(Markup.escaped(heading))</th>"
    }
    let body = rows.map { cells in
      "<tr>"
        + cells.enumerated().map { index, cell in
          index == 0
            ? "<th scope=\"row\">\(Markup.escaped(cell))</th>"
            : "<td\(numeric.contains(index) ? " class=\"n\"" : "")>\(Markup.escaped(cell))</td>"
        }.joined() + "</tr>"
    }
    // Folded under the chart: the figures are there for a screen reader and a
    // copy into a spreadsheet, and the charts stay in view.
    return "<details><summary>\(Markup.escaped(caption)): the figures</summary>"
      + "<table><caption>\(Markup.escaped(caption))</caption><thead><tr>\(head.joined())</tr></thead>"
      + "<tbody>\n\(body.joined(separator: "\n"))\n</tbody></table></details>"
  }

  private var tillDaysTable: String {
    table(
      caption: "Each till's days", headings: ChainReport.TillLine.headings, numeric: [1, 2, 3, 4, 5],
      rows: report.tills.map(\.cells))
  }

  private func chainDaysTable(_ charts: ChainCharts) -> String {
    table(
      caption: "The chain's money per day", headings: ["day", "tills", "charged", "refunded"], numeric: [1, 2, 3],
      rows: zip(charts.days, charts.dailyTotals).map { day, total in
        ["\(day)", "\(total.tills)", money(total.charged), money(total.refunded)]
      })
  }

  private var itemsTable: String {
    table(
      caption: "Sales by item", headings: ["item", "number", "sold", "total"], numeric: [1, 2, 3],
      rows: report.items.map { [$0.name, "\($0.item)", "\($0.count)", money($0.total)] })
  }

  private var stockTable: String {
    table(
      caption: "Stock by ingredient", headings: ChainReport.StockLine.headings, numeric: [1, 2],
      rows: report.stock.map(\.cells))
  }

  /// The page's CSS: system fonts, colours a colour-blind reader tells apart (blue, orange, grey).
  static let style = """
    body{font:15px/1.4 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1d2330;background:#fff;margin:0 auto;\
    max-width:1000px;padding:24px}h1{font-size:26px;margin:0 0 12px}h2{font-size:19px;margin:32px 0 8px}\
    .summary{display:flex;gap:12px;flex-wrap:wrap}.figure{border:1px solid #d5dae3;border-radius:6px;padding:8px 14px}\
    .figure span{display:block;font-size:12px;color:#5b6475;text-transform:uppercase;letter-spacing:.04em}\
    .figure b{font-size:20px;font-variant-numeric:tabular-nums}figure{margin:0}svg.chart{width:100%;height:auto}\
    .charged,.sales,.closing{fill:#2f6db5}.refunded{fill:#e07b24}.bar.opening{fill:#a9c3e3}\
    .bar.missing{fill:none;stroke:#8a93a3;stroke-dasharray:3 3}.baseline{stroke:#5b6475}.grid{stroke:#d5dae3}\
    text{font-size:12px;fill:#1d2330}text.name{font-size:13px;font-weight:600}text.axis{fill:#5b6475;font-size:11px}\
    text.value{font-variant-numeric:tabular-nums}table{border-collapse:collapse;margin:10px 0;font-size:13px}\
    caption{text-align:left;font-weight:600;padding:4px 0}th,td{padding:3px 10px;border-bottom:1px solid #e6e9ef;\
    text-align:left}.n{text-align:right;font-variant-numeric:tabular-nums}.empty{color:#5b6475}\
    summary{cursor:pointer;color:#2f6db5;font-size:13px;margin:6px 0}
    """
}
