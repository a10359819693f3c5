import Foundation
import Payment
import Testing

/// A world that stores the stateful gateway.
struct StripeWorld: ~Copyable, LinkStripePayment {
  var stripeGateway = StripeGateway(limit: 100)
}

/// A world that links the stateless mock and stores nothing.
struct MockWorld: LinkMockPayment {}

@Test func theStripeLinkAdvancesTheStoredSessionInPlace() throws {
  var world = StripeWorld()
  #expect(try world.payment.charge(5) == "ch_local_1")
  #expect(try world.payment.charge(7) == "ch_local_2")
  #expect(try world.payment.refund("ch_local_1", amount: 5) == "re_local_3")
  #expect(world.stripeGateway.nonce == 3)
}

@Test func stripeDeclinesOverTheLimitWithoutSpendingANonce() {
  var world = StripeWorld()
  #expect(throws: PaymentError.declined(reason: "over the 100 limit")) { try world.payment.charge(101) }
  #expect(world.stripeGateway.nonce == 0)
}

@Test func stripeRefusesToRefundWhatIsNotACharge() {
  var world = StripeWorld()
  #expect(throws: PaymentError.declined(reason: "'re_1' is not a charge")) {
    try world.payment.refund("re_1", amount: 1)
  }
}

@Test func theMockLinkApprovesEverythingAndStoresNothing() throws {
  let world = MockWorld()
  #expect(try world.payment.charge(1_000_000) == "mock_ok")
  #expect(try world.payment.refund("mock_ok", amount: 1) == "mock_refund")
  #expect(MemoryLayout<MockWorld>.size == 0)
}
