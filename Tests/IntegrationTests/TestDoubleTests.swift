import ClockTesting
import Foundation
import Menu
import Payment
import PaymentTesting
import Stock
import Synchronization
import Tabs
import Testing

@Test func theRealStatefulGatewayWithAFrozenClock() throws {
  var world = StripeTestWorld()
  let tab = world.openTab(for: "Ada")
  try world.add(latte, to: tab)
  let receipt = try world.settle(tab, key: key(for: tab))
  #expect(receipt == Receipt(tab: tab, total: 4.5, chargedAt: frozen, reference: "ch_test_1", key: key(for: tab)))
  #expect(world.stripeGateway.nonce == 1)
}

@Test func theRecordingMockSeesOneChargeOfTheTotalAndOneLookAtTheClock() throws {
  var world = RecordingWorld()
  world.paymentMock.chargeHandler = { amount, _ in "ch_recorded_\(amount)" }
  world.clockMock.nowHandler = { frozen }
  let tab = world.openTab(for: "Ada")
  try world.add(latte, to: tab)
  try world.add(espresso, to: tab)
  let receipt = try world.settle(tab, key: key(for: tab))

  #expect(receipt.reference == "ch_recorded_7.5")
  #expect(receipt.chargedAt == frozen)
  #expect(world.paymentMock.chargeCallCount == 1)
  #expect(world.paymentMock.chargeArgValues.map(\.amount) == [7.5])
  #expect(world.paymentMock.refundCallCount == 0)
  #expect(world.clockMock.nowCallCount == 1)
}

@Test func aMockWithoutAHandlerAnswersTheZeroAndStillRecords() async throws {
  let mock = PaymentGatewayMock()
  let gateway = mock
  #expect(try gateway.refund("ch_1", amount: 2, key: IdempotencyKey("k_1")) == "")
  #expect(try await mock.authorize(3) == false)
  #expect(mock.refundArgValues.map(\.reference) == ["ch_1"])
  #expect(mock.refundArgValues.map(\.amount) == [2])
  #expect(mock.authorizeArgValues == [3])
}

@Test func theMockRecordsArgumentsAsValuesAndEveryCallInOrder() throws {
  let mock = PaymentGatewayMock()
  let key = IdempotencyKey("k_1")
  mock.statusHandler = { _ in .unknown }
  _ = try mock.status(of: key)
  _ = try mock.charge(4.5, key: key)
  _ = try mock.refund("ch_1", amount: 2, key: key)
  #expect(mock.refundArgValues == [.init(reference: "ch_1", amount: 2, key: key)])
  #expect(
    mock.calls == [
      .status(key), .charge(.init(amount: 4.5, key: key)), .refund(.init(reference: "ch_1", amount: 2, key: key)),
    ])
  mock.reset()
  #expect(mock.calls.isEmpty && mock.chargeCallCount == 0 && mock.refundArgValues.isEmpty)
  #expect(try mock.status(of: key) == .unknown, "the handlers stay set")
}

@Test func aHandlerCollectsIntoALocalOfTheTest() throws {
  var world = RecordingWorld()
  nonisolated(unsafe) var seen: [Decimal] = []
  world.paymentMock.chargeHandler = { amount, _ in
    seen.append(amount)
    return "ch_1"
  }
  let tab = world.openTab(for: "Ada")
  try world.add(latte, to: tab)
  _ = try world.settle(tab, key: key(for: tab))
  #expect(seen == [4.5])
}

@Test func aMissingHandlerWithNoZeroFailsTheTestAndTheRunGoesOn() throws {
  let mock = PaymentGatewayMock()
  var answer: PaymentStatus?
  withKnownIssue("PaymentGatewayMock.status was called with no statusHandler set") {
    answer = try mock.status(of: IdempotencyKey("k_9"))
  }
  #expect(answer == .unknown, "the manifest's mockDefault")
  #expect(mock.statusCallCount == 1)
}

@Test func overridingOneWitnessEndpointLeavesTheOthersUnimplementedButUntouched() throws {
  var witness = PaymentGatewayWitness.unimplemented()
  witness.endpoints.charge = { amount, _ in "ch_witness_\(amount)" }
  var world = WitnessWorld(paymentWitness: witness)
  let tab = world.openTab(for: "Grace")
  try world.add(espresso, to: tab)
  #expect(try world.settle(tab, key: key(for: tab)).reference == "ch_witness_3")  // settle charges; it never refunds
}

@Test func anEndpointTheTestDidNotSetFailsTheTest() throws {
  var world = WitnessWorld(paymentWitness: .unimplemented())
  let tab = world.openTab(for: "Ada")
  try world.add(latte, to: tab)
  withKnownIssue("PaymentGatewayWitness.charge is unimplemented") {
    _ = try world.settle(tab, key: key(for: tab))
  }
}

@Test func anAsyncEndpointThroughTheWitness() async throws {
  var witness = PaymentGatewayWitness.unimplemented()
  witness.endpoints.authorize = { amount in amount <= 10 }
  #expect(try await witness.authorize(4))
  #expect(try await !witness.authorize(11))
}

/// Collects log lines from `@Sendable` closures.
final class LogLines: Sendable {
  private let storage = Mutex<[String]>([])
  func append(_ line: String) { storage.withLock { $0.append(line) } }
  var lines: [String] { storage.withLock { $0 } }
}

/// Counts calls from `@Sendable` closures.
final class Counter: Sendable {
  private let count = Mutex(0)
  func next() -> Int {
    count.withLock {
      $0 += 1
      return $0
    }
  }
}

@Test func decoratorsComposeAsValueToValueFunctions() throws {
  let log = LogLines()
  let calls = Counter()
  var flaky = PaymentGatewayWitness.unimplemented()
  flaky.endpoints.charge = { (amount, _) throws(PaymentError) -> String in
    if calls.next() < 3 { throw .declined(reason: "timeout") }
    return "ch_\(amount)"
  }
  // Log every attempt, retry up to three times, log the outcome the caller sees.
  var witness = flaky.loggingCharge { log.append("attempt: \($0)") }.retryingCharge(attempts: 3)
    .loggingCharge { log.append("caller: \($0)") }
  #expect(try witness.charge(5, key: IdempotencyKey("k_5")) == "ch_5")
  #expect(
    log.lines == [
      "attempt: charge(5, k_5) threw payment declined: timeout",
      "attempt: charge(5, k_5) threw payment declined: timeout",
      "attempt: charge(5, k_5) -> ch_5",
      "caller: charge(5, k_5) -> ch_5",
    ])
}

@Test func retryingGivesUpAfterItsAttemptsAndRethrowsTheLastError() {
  let calls = Counter()
  var failing = PaymentGatewayWitness.unimplemented()
  failing.endpoints.charge = { (_, _) throws(PaymentError) -> String in
    throw .declined(reason: "attempt \(calls.next())")
  }
  var witness = failing.retryingCharge(attempts: 2)
  #expect(throws: PaymentError.declined(reason: "attempt 2")) { try witness.charge(1, key: IdempotencyKey("k_1")) }
}

/// This module enables SuppressedAssociatedTypes (it uses `HasPayment`). The
/// experimental coroutine-accessor feature once used here made such calls land
/// in the wrong method (`Process.run()` in `Process.interrupt()`); this pins
/// that a module with the project's only remaining feature calls Foundation's
/// classes correctly.
@Test func aModuleThatUsesTheNoncopyablePaymentCapabilityRunsAChildProcess() throws {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/bin/sh")
  process.arguments = ["-c", "echo child says hello; exit 3"]
  let output = Pipe()
  process.standardOutput = output
  try process.run()
  let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
  process.waitUntilExit()
  #expect(text == "child says hello\n")
  #expect(process.terminationStatus == 3)
}

@Test func theClockMockRecordsWaitsAndAnswersUptimeAsItsHandlersSay() async throws {
  let mock = KioskClockMock()
  mock.uptimeHandler = { .seconds(3) }
  try await mock.sleep(for: .milliseconds(250))
  #expect(mock.uptime() == .seconds(3))
  #expect(mock.calls == [.sleep(.milliseconds(250)), .uptime])
  mock.sleepHandler = { _ throws(CancellationError) in throw CancellationError() }
  await #expect(throws: CancellationError.self) { try await mock.sleep(for: .seconds(1)) }
  #expect(mock.sleepCallCount == 2)
}

@Test func theClockWitnessRoutesEachRequirementToItsEndpoint() async throws {
  let waits = WaitLog()
  let witness = KioskClockWitness(
    now: { frozen }, sleep: { duration throws(CancellationError) in waits.append(duration) }, uptime: { .seconds(9) })
  try await witness.sleep(for: .seconds(2))
  #expect(waits.entries == [.seconds(2)])
  #expect(witness.uptime() == .seconds(9))
  #expect(witness.now() == frozen)
}

/// The waits a witness was asked for, behind a lock.
final class WaitLog: Sendable {
  private let log = Mutex<[Duration]>([])
  func append(_ duration: Duration) { log.withLock { $0.append(duration) } }
  var entries: [Duration] { log.withLock { $0 } }
}
