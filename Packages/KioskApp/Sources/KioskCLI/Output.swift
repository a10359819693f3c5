import CanonicalJSON
import KioskApp
import Tabs

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a command prints: lines of text, and the same result as one JSON object
/// (its stable schema is in docs/cli.md; golden files pin it).
protocol CommandOutput: Encodable {
  /// The human-readable lines.
  var text: [String] { get }
  /// The lines as the shell prints them, on one line: joined by ` | `.
  var shellLine: String { get }
}

extension CommandOutput {
  /// `text` joined by ` | `; an output the shell prints often gives its line directly.
  var shellLine: String {
    let text = text
    return text.count == 1 ? text[0] : text.joined(separator: " | ")
  }
}

/// One JSON object on one line, keys sorted, slashes unescaped.
func jsonLine(_ value: some Encodable) -> String {
  let encoder = JSONEncoder()
  encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
  encoder.dateEncodingStrategy = .iso8601
  // Every output type is plain strings, numbers and arrays of them: encoding cannot fail.
  return String(decoding: try! encoder.encode(value), as: UTF8.self)
}

/// An error as `--json` prints it on stderr.
struct ErrorOutput: Encodable {
  var error: String
  var exitCode: Int32
}

/// A warning as `--json` prints it on stderr.
struct WarningOutput: Encodable {
  var warning: String
}

/// Aligned text columns, the widest cell setting each column's width.
func table(_ header: [String], _ rows: [[String]]) -> [String] {
  let all = [header] + rows
  let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
  return all.map { row in
    row.enumerated().map { column, cell in
      column == row.count - 1 ? cell : padded(cell, to: widths[column])
    }.joined(separator: "  ")
  }
}

/// `text` with spaces after it up to `width` characters.
func padded(_ text: String, to width: Int) -> String {
  text + String(repeating: " ", count: max(0, width - text.count))
}

/// Writes all of `bytes` to `descriptor` (short writes continued, `EINTR`
/// retried; a stream that is gone drops the rest): standard output and error
/// without Foundation's `FileHandle`, which the command path does not load.
func writeAll(_ bytes: some Collection<UInt8>, to descriptor: Int32) {
  var remaining = Array(bytes)[...]
  while !remaining.isEmpty {
    let written = remaining.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    if written < 0 && errno == EINTR { continue }
    guard written > 0 else { return }
    remaining = remaining.dropFirst(written)
  }
}

/// ISO 8601 in UTC, to the second (`UTCTimestamp`: no Foundation formatter).
func timestamp(_ date: Date) -> String {
  UTCTimestamp.text(date)
}

/// `#1 Ada: Latte, Espresso — 7.50 (settled)`; `total` is the total's text when the caller has it.
func boardLine(_ entry: BoardEntry, total: String? = nil) -> String {
  // Bytes appended into one buffer, then one `String`: a board writes one per
  // tab, and interpolating (or appending `String`s) cost several times more.
  let total = total ?? money(entry.total)
  var line: [UInt8] = []
  line.reserveCapacity(
    48 + entry.customer.utf8.count + total.utf8.count + entry.items.reduce(0) { $0 + $1.utf8.count + 2 })
  line.append(UInt8(ascii: "#"))
  line.append(contentsOf: String(entry.tab.raw).utf8)
  line.append(UInt8(ascii: " "))
  line.append(contentsOf: entry.customer.utf8)
  line.append(contentsOf: ": ".utf8)
  if entry.items.isEmpty {
    line.append(contentsOf: "nothing yet".utf8)
  } else {
    for (index, item) in entry.items.enumerated() {
      if index > 0 { line.append(contentsOf: ", ".utf8) }
      line.append(contentsOf: item.utf8)
    }
  }
  line.append(contentsOf: " — ".utf8)
  line.append(contentsOf: total.utf8)
  if entry.settled { line.append(contentsOf: " (settled)".utf8) }
  return String(decoding: line, as: UTF8.self)
}

/// What reconciliation did with one intent, as a warning on stderr.
struct ReconciliationOutput: Encodable {
  var reconciled: String
  var tab: Int
  var amount: String
  var key: String
  var resolution: String
  var reference: String?
  /// For an intent abandoned because its key had moved money before: that movement.
  var usedBy: String?

  init(_ item: IntentReconciliation) {
    reconciled = item.intent.kind.rawValue
    tab = item.intent.tab.raw
    amount = money(item.intent.amount)
    key = item.intent.key.raw
    switch item.resolution {
    case .completed(let reference):
      resolution = "completed"
      self.reference = reference
    case .abandoned: resolution = "abandoned"
    case .keyUsedBefore(let reference):
      resolution = "abandoned"
      usedBy = reference
    }
  }

  var line: String {
    let what = "\(reconciled) of \(amount) for tab #\(tab) (key \(key))"
    if let reference { return "reconciled: \(what): the processor moved it as \(reference); completed" }
    if let usedBy {
      return "reconciled: \(what): the key moved \(usedBy) before this intent, not this payment; abandoned, "
        + "nothing moved"
    }
    return "reconciled: \(what): the processor has no record of it; abandoned, nothing moved"
  }
}
