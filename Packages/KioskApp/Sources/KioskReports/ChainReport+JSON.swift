import Foundation
import HeadOffice
import KioskApp

extension ChainReport {
  /// The report as data (`kiosk-hq report --json`): the same lines as the text,
  /// money as the till's strings ("4.50"), keys sorted, one line.
  public func json(day: Int?) -> String {
    let document = Document(
      day: day, tillCount: Set(tills.map(\.till)).count, tillDays: tills.count, charged: money(charged),
      refunded: money(refunded),
      tills: tills.map {
        .init(
          till: $0.till, shippedAs: $0.shippedAs, day: $0.day, records: $0.records, settledTabs: $0.settledTabs,
          charged: money($0.charged), refunded: money($0.refunded))
      },
      items: items.map { .init(item: $0.item, name: $0.name, sold: $0.count, total: money($0.total)) },
      stock: stock.map { .init(ingredient: $0.ingredient, opening: $0.opening, closing: $0.closing) })
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    // Every field is a string or an integer: the encoding cannot fail.
    return String(decoding: (try? encoder.encode(document)) ?? Data(), as: UTF8.self)
  }

  /// The JSON document's shape.
  private struct Document: Encodable {
    struct TillDay: Encodable {
      var till: String
      /// The name the day was shipped under, when the till was renamed since.
      var shippedAs: String?
      var day: Int
      var records: Int
      var settledTabs: Int
      var charged: String
      var refunded: String
    }
    struct Item: Encodable {
      var item: Int
      var name: String
      var sold: Int
      var total: String
    }
    struct Stock: Encodable {
      var ingredient: String
      var opening: Int
      var closing: Int
    }
    var day: Int?
    var tillCount: Int
    var tillDays: Int
    var charged: String
    var refunded: String
    var tills: [TillDay]
    var items: [Item]
    var stock: [Stock]
  }
}
