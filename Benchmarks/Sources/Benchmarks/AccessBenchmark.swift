import Foundation

/// The four ways of writing the workload, timed in one run, interleaved so
/// that drift on a shared machine hits them alike.
enum AccessBenchmark {
  static func run(iterations: Int, repeats: Int) -> (table: String, ratio: Double) {
    var best: [AccessVariant: Double] = [:]
    let clock = ContinuousClock()
    for _ in 0..<repeats {
      for variant in AccessVariant.allCases {
        let start = clock.now
        let total = variant.run(iterations: iterations)
        let elapsed = start.duration(to: clock.now)
        blackHole(total)
        let nanoseconds =
          (Double(elapsed.components.seconds) * 1e9 + Double(elapsed.components.attoseconds) / 1e9) / Double(iterations)
        best[variant] = min(best[variant] ?? .infinity, nanoseconds)
      }
    }
    let baseline = best[.b]!
    let rows = AccessVariant.allCases.map { variant in
      [variant.title, format(best[variant]!), format(best[variant]! / baseline, decimals: 2)]
    }
    return (markdownTable(["variant", "ns per workload", "ratio to (b)"], rows), best[.a]! / baseline)
  }
}
