import HeadOffice
import KioskApp

extension ChainReport {
  /// The chain's report as `kiosk-hq report` prints it: each till's days, the
  /// chain's totals, sales by item and stock at opening and close, each a table
  /// in lined-up columns, money as the till formats it.
  public var textLines: [String] {
    let days = TextTable(
      headings: ["till", "day", "records", "settled tabs", "charged", "refunded"],
      alignments: [.left, .right, .right, .right, .right, .right],
      rows: tills.map {
        [$0.till, "\($0.day)", "\($0.records)", "\($0.settledTabs)", money($0.charged), money($0.refunded)]
      })
    let sales = TextTable(
      headings: ["item", "name", "sold", "total"], alignments: [.right, .left, .right, .right],
      rows: items.map { ["\($0.item)", $0.name, "\($0.count)", money($0.total)] })
    let stock = TextTable(
      headings: ["ingredient", "opening", "close"], alignments: [.left, .right, .right],
      rows: self.stock.map { [$0.ingredient, "\($0.opening)", "\($0.closing)"] })
    return days.lines
      + ["chain: \(tills.count) till days, charged \(money(charged)), refunded \(money(refunded))", ""]
      + sales.lines + [""] + stock.lines
  }
}
