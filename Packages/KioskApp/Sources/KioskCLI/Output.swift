import Foundation
import KioskApp

/// What one command prints: human lines, and the same result as one JSON object.
struct Output {
  var lines: [String]
  var json: [String: JSONValue]

  /// The JSON object on one line, keys sorted.
  var jsonLine: String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try! encoder.encode(JSONValue.object(json)), as: UTF8.self)
  }
}

/// Aligned text columns, the widest cell setting each column's width.
func table(_ header: [String], _ rows: [[String]]) -> [String] {
  let all = [header] + rows
  let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
  return all.map { row in
    row.enumerated().map { column, cell in
      column == row.count - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
    }.joined(separator: "  ")
  }
}

/// `4.50`: money with two decimals, rounded half up, computed in `Decimal`.
func money(_ amount: Decimal) -> String {
  var scaled = amount * 100
  var rounded = Decimal()
  NSDecimalRound(&rounded, &scaled, 0, .plain)
  let cents = Int(rounded.description) ?? 0
  let sign = cents < 0 ? "-" : ""
  let fraction = abs(cents) % 100
  return "\(sign)\(abs(cents) / 100).\(fraction < 10 ? "0" : "")\(fraction)"
}

/// ISO 8601 in UTC, to the second.
func timestamp(_ date: Date) -> String {
  date.formatted(.iso8601)
}

extension Reconciliation {
  /// One line on stderr for what reconciliation did with an intent.
  var line: String {
    let what = "\(intent.kind.rawValue) of \(money(intent.amount)) for tab #\(intent.tab.raw) (key \(intent.key))"
    switch resolution {
    case .completed(let reference): return "reconciled: \(what): the processor moved it as \(reference); completed"
    case .abandoned: return "reconciled: \(what): the processor has no record of it; abandoned, nothing moved"
    }
  }

  /// The same as one JSON object.
  var jsonLine: String {
    var object: [String: JSONValue] = [
      "reconciled": .string(intent.kind.rawValue), "tab": .number(intent.tab.raw),
      "amount": .string(money(intent.amount)), "key": .string(intent.key.raw),
    ]
    switch resolution {
    case .completed(let reference):
      object["resolution"] = .string("completed")
      object["reference"] = .string(reference)
    case .abandoned: object["resolution"] = .string("abandoned")
    }
    return Output(lines: [], json: object).jsonLine
  }
}
