import Clock
import Payment

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// How the network between the till and its processor behaves: what makes a
/// processor slow or silent to the till, whatever the processor itself does.
/// `kiosk` takes it from `$KIOSK_PROCESSOR_NETWORK` (docs/cli.md).
public enum ProcessorNetwork: Equatable, Sendable {
  /// Every request arrives and its answer comes back at once.
  case direct
  /// Every request arrives at once and is acted on; its answer takes `latency`
  /// to come back, and is lost when that is longer than the caller waits.
  case slow(latency: Duration)
  /// No request arrives: the caller waits its whole timeout for nothing.
  case silent
  /// The first request arrives and is acted on, and its answer is lost; the
  /// ones after are `direct`.
  case losesFirstAnswer

  /// Delivers a request, by running `deliver` (the processor acting on it),
  /// and waits for its answer, at most `timeout` of `clock`'s time. `attempt`
  /// counts from 1.
  public func send<Answer: Sendable>(
    attempt: Int, timeout: Duration, clock: some KioskClock,
    _ deliver: () async throws(PaymentError) -> Answer
  ) async throws(PaymentError) -> Answer {
    switch self {
    case .direct:
      return try await deliver()
    case .slow(let latency):
      let answer: Result<Answer, PaymentError>
      do { answer = .success(try await deliver()) } catch { answer = .failure(error) }
      do { try await clock.sleep(for: min(latency, timeout)) } catch { throw .timedOut }
      guard latency <= timeout else { throw .timedOut }
      return try answer.get()
    case .silent:
      try? await clock.sleep(for: timeout)
      throw .timedOut
    case .losesFirstAnswer:
      let answer = try await deliver()
      guard attempt == 1 else { return answer }
      try? await clock.sleep(for: timeout)
      throw .timedOut
    }
  }
}
