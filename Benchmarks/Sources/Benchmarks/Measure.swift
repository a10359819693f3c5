/// Times a closure: the best of `repeats` runs, each of `iterations` calls.
///
/// The best, not the mean: on a shared machine noise only ever adds time.
struct Measurement {
  /// Nanoseconds per iteration, best run.
  var nanoseconds: Double
}

/// Keeps a value alive so the optimizer cannot drop the work that made it.
@inline(never)
func blackHole<T>(_ value: T) {
  withExtendedLifetime(value) {}
}

func measure(iterations: Int, repeats: Int, _ body: (Int) -> Void) -> Measurement {
  let clock = ContinuousClock()
  var best = Duration.seconds(1_000_000)
  for _ in 0..<repeats {
    let start = clock.now
    body(iterations)
    best = min(best, start.duration(to: clock.now))
  }
  let seconds = Double(best.components.seconds) + Double(best.components.attoseconds) / 1e18
  return Measurement(nanoseconds: seconds * 1e9 / Double(iterations))
}

/// Seconds `body` takes, once.
func timed(_ body: () throws -> Void) rethrows -> Double {
  let clock = ContinuousClock()
  let start = clock.now
  try body()
  let elapsed = start.duration(to: clock.now)
  return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

/// A markdown table.
func markdownTable(_ header: [String], _ rows: [[String]]) -> String {
  var lines = ["| " + header.joined(separator: " | ") + " |"]
  lines.append("|" + header.map { _ in "---" }.joined(separator: "|") + "|")
  for row in rows { lines.append("| " + row.joined(separator: " | ") + " |") }
  return lines.joined(separator: "\n")
}

/// `1234.5` → `1,234.5` style, one decimal.
func format(_ value: Double, decimals: Int = 1) -> String {
  var scale = 1.0
  for _ in 0..<decimals { scale *= 10 }
  let rounded = (value * scale).rounded() / scale
  let integer = Int(rounded)
  var digits = String(abs(integer))
  var grouped = ""
  while digits.count > 3 {
    grouped = "," + digits.suffix(3) + grouped
    digits.removeLast(3)
  }
  grouped = (integer < 0 ? "-" : "") + digits + grouped
  guard decimals > 0 else { return grouped }
  let fraction = Int(((abs(rounded) - Double(abs(integer))) * scale).rounded())
  let padded = String(repeating: "0", count: max(decimals - String(fraction).count, 0)) + String(fraction)
  return grouped + "." + padded
}
