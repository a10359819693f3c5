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
  #expect(try world.payment.charge(5) == "ch_1")
  #expect(try world.payment.charge(7) == "ch_2")
  #expect(world.stripeGateway.nonce == 2)
}

@Test func stripeDeclinesOverTheLimitWithoutSpendingANonce() {
  var world = StripeWorld()
  #expect(throws: PaymentError.declined(reason: "over the 100 limit")) { try world.payment.charge(101) }
  #expect(world.stripeGateway.nonce == 0)
}

@Test func theMockLinkApprovesEverythingAndStoresNothing() throws {
  let world = MockWorld()
  #expect(try world.payment.charge(1_000_000) == "mock_ok")
  #expect(MemoryLayout<MockWorld>.size == 0)
}
