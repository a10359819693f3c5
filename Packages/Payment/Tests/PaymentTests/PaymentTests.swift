import Foundation
import Payment
import Testing

/// A world that stores the stateful gateway.
struct StripeWorld: ~Copyable, LinkStripePayment {
  var stripeGateway = StripeGateway(limit: 100)
}

/// A world that links the stateless mock and stores nothing.
struct MockWorld: LinkMockPayment {}

let k1 = IdempotencyKey("k_1")
let k2 = IdempotencyKey("k_2")
let k3 = IdempotencyKey("k_3")

@Test func theStripeLinkAdvancesTheStoredSessionInPlace() throws {
  var world = StripeWorld()
  #expect(try world.payment.charge(5, key: k1) == "ch_local_1")
  #expect(try world.payment.charge(7, key: k2) == "ch_local_2")
  #expect(try world.payment.refund("ch_local_1", amount: 5, key: k3) == "re_local_3")
  #expect(world.stripeGateway.nonce == 3)
}

@Test func aRepeatedKeyReturnsTheFirstOutcomeAndMovesNoMoney() throws {
  var world = StripeWorld()
  #expect(try world.payment.charge(5, key: k1) == "ch_local_1")
  #expect(try world.payment.charge(5, key: k1) == "ch_local_1")
  #expect(world.stripeGateway.nonce == 1)
  #expect(try world.payment.status(of: k1) == .charged(reference: "ch_local_1", amount: 5))
  #expect(try world.payment.status(of: k2) == .unknown)
}

@Test func stripeDeclinesOverTheLimitWithoutSpendingANonce() {
  var world = StripeWorld()
  #expect(throws: PaymentError.declined(reason: "over the 100 limit")) { try world.payment.charge(101, key: k1) }
  #expect(world.stripeGateway.nonce == 0)
}

@Test func stripeRefusesToRefundWhatIsNotACharge() {
  var world = StripeWorld()
  #expect(throws: PaymentError.declined(reason: "'re_1' is not a charge")) {
    try world.payment.refund("re_1", amount: 1, key: k1)
  }
}

@Test func theMockLinkApprovesEverythingAndStoresNothing() throws {
  let world = MockWorld()
  #expect(try world.payment.charge(1_000_000, key: k1) == "mock_ok")
  #expect(try world.payment.refund("mock_ok", amount: 1, key: k2) == "mock_refund")
  #expect(MemoryLayout<MockWorld>.size == 0)
}

/// A ledger file in its own temporary folder.
final class LedgerFile {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ledger-\(UUID().uuidString)")
  var path: String { folder.appendingPathComponent("kiosk.journal.processor").path }
  init() throws { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
  deinit { try? FileManager.default.removeItem(at: folder) }
}

@Test func theLocalProcessorKeepsItsLedgerAcrossReopens() throws {
  let file = try LedgerFile()
  var processor = try LocalProcessor(path: file.path)
  let charge = try processor.charge(7.5, key: k1)
  let refund = try processor.refund(charge, amount: 7.5, key: k2)
  _ = consume processor
  var reopened = try LocalProcessor(path: file.path)
  #expect(try reopened.status(of: k1) == .charged(reference: charge, amount: 7.5))
  #expect(try reopened.status(of: k2) == .refunded(reference: refund, charge: charge, amount: 7.5))
  #expect(try reopened.charge(7.5, key: k1) == charge)
  #expect(reopened.entries.count == 2)
  #expect(throws: PaymentError.declined(reason: "'\(charge)' was refunded already")) {
    try reopened.refund(charge, amount: 7.5, key: k3)
  }
}

@Test func theLocalProcessorDeclinesOverItsLimitAndEmptyCharges() throws {
  let file = try LedgerFile()
  var processor = try LocalProcessor(path: file.path)
  #expect(throws: PaymentError.declined(reason: "over the 1000 limit")) { try processor.charge(1_000.01, key: k1) }
  #expect(throws: PaymentError.declined(reason: "nothing to charge")) { try processor.charge(0, key: k2) }
  #expect(processor.entries.isEmpty)
}

@Test func theLocalProcessorActsOutEachFault() throws {
  let file = try LedgerFile()
  var processor = try LocalProcessor(path: file.path, fault: .decline)
  #expect(throws: PaymentError.declined(reason: "the processor declines every payment (fault injection)")) {
    try processor.charge(5, key: k1)
  }
  processor.fault = .timeout
  #expect(throws: PaymentError.timedOut) { try processor.charge(5, key: k1) }
  #expect(try processor.status(of: k1) == .unknown)
  processor.fault = .failAfterCharging
  #expect(throws: PaymentError.timedOut) { try processor.charge(5, key: k1) }
  guard case .charged(let reference, 5) = try processor.status(of: k1) else {
    Issue.record("a lost answer must still leave the charge in the ledger")
    return
  }
  processor.fault = nil
  #expect(try processor.charge(5, key: k1) == reference)
  #expect(processor.entries.count == 1)
}
