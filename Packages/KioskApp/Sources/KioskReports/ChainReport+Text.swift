import HeadOffice
import KioskApp

extension ChainReport {
  /// The chain's report as `kiosk-hq report` prints it: each till's days, the
  /// chain's totals, sales by item and stock at opening and close, each a table
  /// in lined-up columns, money as the till formats it.
  public var textLines: [String] {
    let days = TextTable(
      headings: TillLine.headings, alignments: [.left, .right, .right, .right, .right, .right],
      rows: tills.map(\.cells))
    let sales = TextTable(
      headings: ["item", "name", "sold", "total"], alignments: [.right, .left, .right, .right],
      rows: items.map { ["\($0.item)", $0.name, "\($0.count)", money($0.total)] })
    let stock = TextTable(
      headings: StockLine.headings, alignments: [.left, .right, .right], rows: self.stock.map(\.cells))
    return days.lines
      + ["chain: \(tills.count) till days, charged \(money(charged)), refunded \(money(refunded))", ""]
      + sales.lines + [""] + stock.lines
  }
}

extension ChainReport.TillLine {
  /// The columns of a till's day, as the text report and the page's table head them.
  static let headings = ["till", "day", "records", "settled tabs", "charged", "refunded"]
  /// Its cells, money as the till prints it; a day shipped under the till's old name says so.
  var cells: [String] {
    [
      till + (shippedAs.map { " (as \($0))" } ?? ""), "\(day)", "\(records)", "\(settledTabs)", money(charged),
      money(refunded),
    ]
  }
}

extension ChainReport.StockLine {
  /// The columns of an ingredient's line.
  static let headings = ["ingredient", "opening", "close"]
  /// Its cells.
  var cells: [String] { [ingredient, "\(opening)", "\(closing)"] }
}
