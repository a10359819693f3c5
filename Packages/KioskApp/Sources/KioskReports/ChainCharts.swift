import Foundation
import HeadOffice
import KioskApp

/// The page's four charts, drawn from a `ChainReport` as inline SVG: every bar
/// carries its figure (`data-value`, as the till's `money()` prints it) and a
/// title, so a browser, a screen reader and a test read the same numbers.
struct ChainCharts {
  let report: ChainReport

  /// One chart: its id, its heading, and its SVG.
  struct Chart {
    var id: String
    var title: String
    var width: Double
    var height: Double
    var parts: [String]

    /// The `<svg>` element.
    var svg: String {
      "<svg id=\"\(id)-chart\" class=\"chart\" viewBox=\"0 0 \(Markup.coordinate(width)) \(Markup.coordinate(height))\" "
        + "role=\"img\" aria-labelledby=\"\(id)-title\"><title id=\"\(id)-title\">\(Markup.escaped(title))</title>\n"
        + parts.joined(separator: "\n") + "\n</svg>"
    }
  }

  /// The days the report holds, in order: a day some till shipped has its
  /// place in every till's row (an empty box where that till's is missing).
  /// Only days present: the page grows with the report, not with the span of
  /// day numbers (days 1 and 100,000 are two places, not 100,000).
  var days: [Int] { Set(report.tills.map(\.day)).sorted() }

  /// The chain's money on each of `days`, in the same order: what the till days
  /// of that day charged and refunded, and how many tills they were.
  var dailyTotals: [(tills: Int, charged: Decimal, refunded: Decimal)] {
    var totals: [Int: (tills: Int, charged: Decimal, refunded: Decimal)] = [:]
    for line in report.tills {
      let sum = totals[line.day] ?? (0, 0, 0)
      totals[line.day] = (sum.tills + 1, sum.charged + line.charged, sum.refunded + line.refunded)
    }
    return days.map { totals[$0] ?? (0, 0, 0) }
  }

  /// The tills, in the report's order.
  var tills: [String] {
    var seen: Set<String> = []
    return report.tills.map(\.till).filter { seen.insert($0).inserted }
  }

  /// Money charged by each till on each day, a row of bars per till on one
  /// scale; a day the head office does not hold for a till (set aside, or not
  /// yet synced) is an empty dashed box.
  var tillDays: Chart {
    let (left, right, rowHeight, barSpace) = (190.0, 950.0, 64.0, 44.0)
    let lines = Dictionary(report.tills.map { ("\($0.till)\u{0}\($0.day)", $0) }, uniquingKeysWith: { $1 })
    let top = max(report.tills.map { Markup.magnitude($0.charged) }.max() ?? 0, 0.01)
    let slot = (right - left) / Double(max(days.count, 1))
    var parts: [String] = []
    for (row, till) in tills.enumerated() {
      let base = 10 + Double(row) * rowHeight + barSpace
      let total = report.tills.filter { $0.till == till }.reduce(Decimal(0)) { $0 + $1.charged }
      parts.append(SVGText(kind: "name", text: Self.shortened(till), x: left - 12, y: base - 24, anchor: "end").markup)
      parts.append(SVGText(kind: "value", text: money(total), x: left - 12, y: base - 6, anchor: "end").markup)
      parts.append(baseline(from: left, to: right, at: base))
      for (index, day) in days.enumerated() {
        let x = left + Double(index) * slot + slot * 0.15
        let label = "\(till), day \(day)"
        guard let line = lines["\(till)\u{0}\(day)"] else {
          parts.append(
            SVGBar(
              series: "missing", label: label, value: "none", title: "not at the head office", x: x,
              y: base - barSpace, width: slot * 0.7, height: barSpace
            ).markup)
          continue
        }
        let height = barSpace * max(Markup.magnitude(line.charged), 0) / top
        parts.append(
          SVGBar(
            series: "charged", label: label, value: money(line.charged),
            title:
              "\(money(line.charged)) charged, \(money(line.refunded)) refunded, \(line.settledTabs) tabs settled",
            x: x, y: base - height, width: slot * 0.7, height: height
          ).markup)
      }
    }
    let axis = 10 + Double(tills.count) * rowHeight + 8
    parts += dayLabels(left: left, slot: slot, y: axis)
    return Chart(
      id: "till-days", title: "Money charged per till per day", width: 960, height: axis + 10, parts: parts)
  }

  /// The chain's money each day: charged and refunded side by side, the
  /// charged figure standing above its bar.
  var chainDays: Chart {
    let (left, right, plotTop, plotHeight) = (96.0, 950.0, 90.0, 200.0)
    let totals = dailyTotals
    // One scale for both series: a day that refunded more than it charged stays inside the chart.
    let top = max(totals.map { max(Markup.magnitude($0.charged), Markup.magnitude($0.refunded)) }.max() ?? 0, 0.01)
    let peak = totals.map { max($0.charged, $0.refunded) }.max() ?? 0
    let slot = (right - left) / Double(max(days.count, 1))
    let base = plotTop + plotHeight
    var parts = [
      "<line class=\"grid\" x1=\"\(Markup.coordinate(left))\" y1=\"\(Markup.coordinate(plotTop))\" "
        + "x2=\"\(Markup.coordinate(right))\" y2=\"\(Markup.coordinate(plotTop))\"/>",
      SVGText(kind: "axis", text: money(peak), x: left - 6, y: plotTop + 4, anchor: "end").markup,
      baseline(from: left, to: right, at: base),
      SVGText(kind: "axis", text: money(0), x: left - 6, y: base + 4, anchor: "end").markup,
      // The key: which colour is which.
      "<rect class=\"key charged\" x=\"\(Markup.coordinate(left))\" y=\"4\" width=\"10\" height=\"10\"/>",
      SVGText(kind: "axis", text: "charged", x: left + 14, y: 13).markup,
      "<rect class=\"key refunded\" x=\"\(Markup.coordinate(left + 80))\" y=\"4\" width=\"10\" height=\"10\"/>",
      SVGText(kind: "axis", text: "refunded", x: left + 94, y: 13).markup,
    ]
    for (index, day) in days.enumerated() {
      let (charged, refunded) = (totals[index].charged, totals[index].refunded)
      let width = slot * 0.38
      let x = left + Double(index) * slot + slot * 0.1
      let chargedHeight = plotHeight * max(Markup.magnitude(charged), 0) / top
      let refundedHeight = plotHeight * max(Markup.magnitude(refunded), 0) / top
      parts.append(
        SVGBar(
          series: "charged", label: "day \(day)", value: money(charged), title: "\(money(charged)) charged",
          x: x, y: base - chargedHeight, width: width, height: chargedHeight
        ).markup)
      parts.append(
        SVGBar(
          series: "refunded", label: "day \(day)", value: money(refunded), title: "\(money(refunded)) refunded",
          x: x + width, y: base - refundedHeight, width: width, height: refundedHeight
        ).markup)
      // A figure stands above its bar while there is room for it; past that the
      // bars' titles and the table below carry the figures.
      if slot >= 16 {
        parts.append(
          SVGText(
            kind: "value", text: money(charged), x: x + width / 2 + 4, y: base - chargedHeight - 4, rotation: -90
          ).markup)
      }
    }
    parts += dayLabels(left: left, slot: slot, y: base + 18)
    return Chart(
      id: "chain-days", title: "The chain's money per day: charged and refunded", width: 960, height: base + 28,
      parts: parts)
  }

  /// Sales by item across the chain, net of refunds, in the report's item order.
  var items: Chart {
    let (left, barMax, rowHeight) = (190.0, 560.0, 30.0)
    let top = max(report.items.map { Markup.magnitude($0.total) }.max() ?? 0, 0.01)
    var parts: [String] = []
    for (row, item) in report.items.enumerated() {
      let y = 10 + Double(row) * rowHeight
      let width = barMax * max(Markup.magnitude(item.total), 0) / top
      parts.append(
        SVGText(kind: "name", text: Self.shortened(item.name), x: left - 12, y: y + 15, anchor: "end").markup)
      parts.append(
        SVGBar(
          series: "sales", label: item.name, value: money(item.total),
          title: "\(money(item.total)) from \(item.count) sold", x: left, y: y, width: width, height: 20
        ).markup)
      parts.append(
        SVGText(kind: "value", text: "\(money(item.total)) · \(item.count) sold", x: left + width + 8, y: y + 15)
          .markup)
    }
    return Chart(
      id: "items", title: "Sales by item", width: 960, height: 20 + Double(report.items.count) * rowHeight,
      parts: parts)
  }

  /// Each ingredient's units across the chain at the opening and the close of
  /// the same days.
  var stock: Chart {
    let (left, barMax, rowHeight) = (190.0, 560.0, 40.0)
    let top = Double(max(report.stock.map { max($0.opening, $0.closing) }.max() ?? 0, 1))
    var parts: [String] = []
    for (row, line) in report.stock.enumerated() {
      let y = 10 + Double(row) * rowHeight
      parts.append(
        SVGText(kind: "name", text: Self.shortened(line.ingredient), x: left - 12, y: y + 17, anchor: "end").markup)
      for (offset, series, units, words) in [
        (0.0, "opening", line.opening, "at opening"), (14.0, "closing", line.closing, "at close"),
      ] {
        let width = barMax * Double(max(units, 0)) / top
        parts.append(
          SVGBar(
            series: series, label: line.ingredient, value: "\(units)", title: "\(units) \(words)", x: left,
            y: y + offset, width: width, height: 12
          ).markup)
        parts.append(SVGText(kind: "value", text: "\(units) \(words)", x: left + width + 8, y: y + offset + 10).markup)
      }
    }
    return Chart(
      id: "stock", title: "Stock at close against opening", width: 960,
      height: 20 + Double(report.stock.count) * rowHeight, parts: parts)
  }

  /// A name as a chart's label shows it: at most 22 characters, then an
  /// ellipsis (the bar's title and the table give it whole).
  static func shortened(_ name: String) -> String {
    name.count <= 22 ? name : String(name.prefix(21)) + "…"
  }

  /// A chart's zero line.
  private func baseline(from left: Double, to right: Double, at y: Double) -> String {
    "<line class=\"baseline\" x1=\"\(Markup.coordinate(left))\" y1=\"\(Markup.coordinate(y))\" "
      + "x2=\"\(Markup.coordinate(right))\" y2=\"\(Markup.coordinate(y))\"/>"
  }

  /// The days under the bars: every day up to 31 of them, else evenly spaced ones.
  private func dayLabels(left: Double, slot: Double, y: Double) -> [String] {
    let step = max(1, (days.count + 30) / 31)
    return days.enumerated().filter { $0.offset % step == 0 }.map { index, day in
      SVGText(kind: "axis", text: "\(day)", x: left + (Double(index) + 0.5) * slot, y: y, anchor: "middle").markup
    }
  }
}
