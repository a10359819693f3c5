import Clock
import Payment
import Synchronization

/// The line between the till on the durable store and its processor: every
/// movement, and every question about a key this line sent a movement
/// under, goes through the network it models (`ProcessorNetwork`,
/// `$KIOSK_PROCESSOR_NETWORK`), so a silent or slow processor is silent or
/// slow to the store's attempts and to its questions after them alike. The
/// question asked before a key is first used (is it fresh?), and those a
/// till asks when it opens, read the ledger directly. The
/// store's deadline bounds each call; `timeout` is how long the network
/// holds an answer before it counts as lost.
public final class ProcessorLine: Sendable {
  /// How requests reach the processor.
  public let network: ProcessorNetwork
  /// How long one call waits for its answer (the attempt's deadline).
  public let timeout: Duration
  private let sent = Mutex((movements: 0, keys: Set<IdempotencyKey>()))

  /// A line over `network`, each call waiting at most `timeout`.
  public init(network: ProcessorNetwork = .direct, timeout: Duration = PaymentRetryPolicy.standard.attemptTimeout) {
    self.network = network
    self.timeout = timeout
  }

  /// Sends a movement (a charge, a refund), `deliver` being the processor
  /// making it, and waits for its answer. Movements are counted from the
  /// first this line sent: the network that loses the first answer loses that one's.
  func move(key: IdempotencyKey, clock: any KioskClock, _ deliver: () throws(PaymentError) -> String)
    async throws(PaymentError) -> String
  {
    let attempt = sent.withLock { sent in
      sent.movements += 1
      sent.keys.insert(key)
      return sent.movements
    }
    return try await network.send(attempt: attempt, timeout: timeout, clock: clock) { () throws(PaymentError) in
      try deliver()
    }
  }

  /// Lets the line forget it sent a movement under `key`: the next question
  /// about it reads the ledger directly, as a till that opens asks (a payment
  /// left open unanswered, asked about again by the next command).
  func forget(_ key: IdempotencyKey) {
    _ = sent.withLock { $0.keys.remove(key) }
  }

  /// Asks the processor what moved under `key`, `answer` being its answer:
  /// through the network once this line sent a movement under the key
  /// (silent or slow as movements are, but never the first movement whose
  /// answer is lost), from the ledger directly before.
  func ask<Answer: Sendable>(key: IdempotencyKey, clock: any KioskClock, _ answer: () -> Answer)
    async throws(PaymentError) -> Answer
  {
    guard sent.withLock({ $0.keys.contains(key) }) else { return answer() }
    return try await network.send(attempt: .max, timeout: timeout, clock: clock) { () throws(PaymentError) in
      answer()
    }
  }
}
