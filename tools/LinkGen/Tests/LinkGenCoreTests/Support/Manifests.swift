/// Manifests shared by the tests: one per domain kind and a world.
enum Manifests {
  static let state = """
    domains:
      Menu:
        state: MenuState
        doc: "Items for sale."
    """

  static let service = """
    domains:
      Payment:
        service: PaymentGateway
        noncopyable: true
        doc: "Takes money."
        links:
          Stripe: { impl: StripeGateway, stores: stripeGateway, doc: "Production." }
          Mock: { impl: MockGateway }
      Clock:
        service: KioskClock
        access: read
        links:
          System: { impl: SystemClock }
          Fixed: { impl: FixedClock, demands: { frozenNow: Date } }
    """

  static let resource = """
    domains:
      Journal:
        resource: WriteAheadLog
        property: journal
        doc: "The log of commands."
    """

  static let world = """
    domains:
      Menu: { state: MenuState }
      Journal: { resource: WriteAheadLog }
      Payment:
        service: PaymentGateway
        links:
          Stripe: { impl: StripeGateway, stores: stripeGateway }
          Mock: { impl: MockGateway }
    worlds:
      ShopWorld:
        module: ShopApp
        doc: "The shop."
        domains: [Menu, Journal, Payment]
        links: { Payment: Stripe }
    """

  /// `world`, with every mapping's keys in another order.
  static let worldReordered = """
    worlds:
      ShopWorld:
        links: { Payment: Stripe }
        domains: [Payment, Journal, Menu]
        doc: "The shop."
        module: ShopApp
    domains:
      Payment:
        links:
          Mock: { impl: MockGateway }
          Stripe: { stores: stripeGateway, impl: StripeGateway }
        service: PaymentGateway
      Journal: { resource: WriteAheadLog }
      Menu: { state: MenuState }
    """

  /// Services with `mock: true`: every requirement shape the emitters handle.
  static let mocked = """
    domains:
      Payment:
        service: PaymentGateway
        noncopyable: true
        mock: true
        links: { Mock: { impl: MockGateway } }
        requirements:
          charge: { parameters: ["_ amount: Decimal"], returns: String, throws: PaymentError, mutating: true }
          refund: { parameters: ["_ reference: String", "amount: Decimal"], returns: String, throws: true, mutating: true }
          authorize: { parameters: ["_ amount: Decimal"], returns: Bool, throws: PaymentError, async: true }
          rewind:
          status: { parameters: ["of key: String"], returns: PaymentStatus, mockDefault: ".unknown" }
          chargeCents: { name: charge, parameters: ["cents: Int"], returns: String, throws: PaymentError, mutating: true }
          observe: { parameters: ["_ value: any Sendable", "count: Int"] }
      Clock:
        service: KioskClock
        access: read
        mock: true
        links: { System: { impl: SystemClock } }
        requirements:
          now: { returns: Date }
    worlds:
      ProbeWorld:
        module: ProbeTests
        domains: [Payment, Clock]
        links: { Payment: Witness, Clock: Recording }
    """
}
