import Clock
import KioskCommands
import Menu
import Payment
import Tabs

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What the till's payments run on: the clock their waits and deadlines
/// use, where retries take their jitter, the retry policy, and the network to
/// the processor. Injected, so a test runs them on virtual time.
public struct EffectEnvironment: Sendable {
  /// The clock effects wait on.
  public var clock: any KioskClock
  /// The jitter of retries' backoff.
  public var jitter: Jitter
  /// Each processor call's deadline and retries.
  public var policy: PaymentRetryPolicy
  /// How requests reach the processor.
  public var network: ProcessorNetwork

  /// An environment.
  public init(clock: any KioskClock, jitter: Jitter, policy: PaymentRetryPolicy, network: ProcessorNetwork) {
    self.clock = clock
    self.jitter = jitter
    self.policy = policy
    self.network = network
  }

  /// Production: the system clock, random jitter, the standard policy, a direct network.
  public static let live = EffectEnvironment(
    clock: SystemClock(), jitter: .random, policy: .standard, network: .direct)
}
