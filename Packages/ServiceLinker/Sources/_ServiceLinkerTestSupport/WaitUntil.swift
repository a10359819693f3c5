import Testing

/// Waits, yielding and then sleeping briefly, until `condition` holds, and
/// returns true; records an issue at the caller and returns false when it still
/// does not hold after `timeout` of real time. For waiting on another process
/// or thread; work on a `TestClock` needs no such loop.
@discardableResult
public func waitUntil(
  _ what: @autoclosure () -> String = "the condition", timeout: Duration = .seconds(10),
  sourceLocation: SourceLocation = #_sourceLocation, _ condition: () async throws -> Bool
) async rethrows -> Bool {
  let clock = ContinuousClock()
  let deadline = clock.now.advanced(by: timeout)
  var round = 0
  while true {
    if try await condition() { return true }
    guard clock.now < deadline else {
      Issue.record(Comment(rawValue: "\(what()) did not hold within \(timeout)"), sourceLocation: sourceLocation)
      return false
    }
    round += 1
    if round < 100 {
      await Task.yield()
    } else {
      try? await Task.sleep(for: .milliseconds(5))
    }
  }
}
