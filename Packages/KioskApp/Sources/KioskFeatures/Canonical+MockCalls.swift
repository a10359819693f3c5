import CanonicalJSON
import KioskCommands
import Payment
import PaymentTesting

extension PaymentGatewayMock.Call: CanonicalEncodable {
  /// One call the command made on the processor: `{"charge": {"amount": "7.50", "key": "k_1"}}`.
  public var canonical: JSONValue {
    switch self {
    case .authorize(let amount): .sum("authorize", ["amount": CanonicalMoney.value(amount)])
    case .charge(let args):
      .sum("charge", ["amount": CanonicalMoney.value(args.amount), "key": .string(args.key.raw)])
    case .refund(let args):
      .sum(
        "refund",
        [
          "amount": CanonicalMoney.value(args.amount), "key": .string(args.key.raw),
          "reference": .string(args.reference),
        ])
    case .status(let key): .sum("status", ["key": .string(key.raw)])
    }
  }
}
