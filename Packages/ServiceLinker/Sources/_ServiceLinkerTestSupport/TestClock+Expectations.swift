import Testing
import VirtualTime

extension TestClock {
  /// Records an issue naming every task still waiting on the clock: a test
  /// that ends with a sleeper pending left work it never ran.
  public func expectNoSleepers(sourceLocation: SourceLocation = #_sourceLocation) {
    let pending = sleepers
    guard !pending.isEmpty else { return }
    Issue.record(
      Comment(
        rawValue: "\(pending.count) task\(pending.count == 1 ? " is" : "s are") still waiting on the test clock at "
          + "\(now): \(pending.map(\.description).joined(separator: "; ")); advance it, or cancel them"),
      sourceLocation: sourceLocation)
  }
}

/// Runs `body` on a fresh `TestClock`, then fails the test if any task is still waiting on it.
public func withTestClock<Result>(
  sourceLocation: SourceLocation = #_sourceLocation, _ body: (TestClock) async throws -> Result
) async rethrows -> Result {
  let clock = TestClock()
  defer { clock.expectNoSleepers(sourceLocation: sourceLocation) }
  return try await body(clock)
}
