import Synchronization

/// A value behind a lock, shareable between tasks: what a test collects into
/// from handlers and effects that run elsewhere.
public final class Locked<Value: Sendable>: Sendable {
  private let mutex: Mutex<Value>

  /// A lock around `value`.
  public init(_ value: Value) { mutex = Mutex(value) }

  /// The value now.
  public var value: Value { mutex.withLock { $0 } }

  /// Changes the value under the lock and returns what `body` returns.
  @discardableResult
  public func withLock<Result: Sendable>(_ body: (inout Value) -> Result) -> Result {
    mutex.withLock { body(&$0) }
  }
}
