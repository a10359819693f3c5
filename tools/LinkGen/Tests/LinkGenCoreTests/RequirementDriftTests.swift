import Foundation
import LinkGenCore
import Testing

/// A repository with the scaffolded service Rewards, whose protocol and
/// `requirements:` agree as new-domain writes them.
private func serviceRoot() throws -> TemporaryRoot {
  let root = try TemporaryRoot()
  try root.write("codegen.yaml", commentedManifest)
  try root.write("Package.swift", rootPackage)
  let (status, _, errors) = root.run(["new-domain", "Rewards", "--kind", "service"])
  #expect(status == .success, "\(errors)")
  try root.linkGeneratedFolders()
  try root.write("Packages/Menu/Package.swift", "targets: [.target(name: \"Menu\")]\n")
  return root
}

private let protocolFile = "Packages/Rewards/Sources/Rewards/RewardsService.swift"

@Test func aScaffoldedServiceAgreesWithItsRequirements() throws {
  let root = try serviceRoot()
  let (status, _, errors) = root.run(["check"])
  #expect(status == .success, "\(errors)")
}

@Test(arguments: [
  (
    "func describe(_ value: Int) -> String", "func describe(of value: Int) -> String",
    "codegen.yaml:14:7: error: requirement 'describe' of service 'Rewards' says func describe(_:), but protocol "
      + "RewardsService declares func describe(of:) at \(protocolFile):4:3; make the two agree"
  ),
  (
    "mutating func record(_ value: Int)", "func record(_ value: Int)",
    "codegen.yaml:15:7: error: requirement 'record' of service 'Rewards' says mutating func record(_:), but protocol "
      + "RewardsService declares func record(_:) at \(protocolFile):6:3"
  ),
  (
    "mutating func record(_ value: Int)", "mutating func record(_ value: Int) async throws",
    "says mutating func record(_:), but protocol RewardsService declares mutating func record(_:) async throws"
  ),
  (
    "  mutating func record(_ value: Int)\n", "  mutating func record(_ value: Int)\n  func reset(to value: Int)\n",
    "codegen.yaml:13:5: error: protocol RewardsService declares func reset(to:) at \(protocolFile):7:3, which "
      + "'requirements' of service 'Rewards' does not list; add it here, or remove it from the protocol"
  ),
  (
    "  mutating func record(_ value: Int)\n", "  mutating func record(_ value: Int)\n  var total: Int { get }\n",
    "codegen.yaml:13:5: error: protocol RewardsService declares property 'total' at \(protocolFile):7:3; service "
      + "'Rewards' is mocked (mock: true), and its mock and witness implement only the methods under 'requirements'"
  ),
  (
    "  mutating func record(_ value: Int)\n",
    "  mutating func record(_ value: Int)\n  subscript(i: Int) -> Int { get }\n",
    "protocol RewardsService declares a subscript at \(protocolFile):7:3"
  ),
  (
    "  mutating func record(_ value: Int)\n",
    "  mutating func record(_ value: Int)\n  mutating func record(_ text: String)\n",
    "codegen.yaml:13:5: error: protocol RewardsService declares mutating func record(_:) at \(protocolFile):7:3, which "
      + "'requirements' of service 'Rewards' does not list"
  ),
  (
    "  /// Takes note of `value`.\n  mutating func record(_ value: Int)\n", "",
    "codegen.yaml:15:7: error: requirement 'record' of service 'Rewards' (mutating func record(_:)) is not declared "
      + "by protocol RewardsService; remove it here, or add it to the protocol"
  ),
])
func aProtocolThatDriftsIsReportedAtTheRequirementInTheManifest(
  declared: String, drifted: String, message: String
) throws {
  try expectCheckFails(in: serviceRoot(), editing: protocolFile, replacing: declared, with: drifted, saying: message)
}

/// Comments, strings and closure types in the protocol are read as Swift reads them.
@Test func commentsStringsAndClosureParametersDoNotConfuseTheReading() throws {
  let root = try serviceRoot()
  try root.write(
    protocolFile,
    """
    /// What the Rewards service does: `func fake(_ x: Int)` in a comment is not a method.
    public protocol RewardsService {
      /* func alsoNot() */
      /// A label for `value`, "func inAString()".
      func describe(
        _ value: Int
      ) -> String
      /// Takes note of `value`.
      mutating func record(_ value: Int)
    }

    """)
  #expect(root.run(["check"]).0 == .success)
}

/// This repository's Payment protocol is found and read: a label renamed in a
/// copy of its manifest is reported at the requirement.
@Test func thePaymentGatewaysRequirementsAreHeldToItsProtocol() throws {
  let repository = thisRepository
  let manifest = try String(contentsOf: repository.appendingPathComponent("codegen.yaml"), encoding: .utf8)
  let listed = "parameters: [\"_ amount: Decimal\", \"key: IdempotencyKey\"]"
  #expect(manifest.contains(listed))
  let root = try TemporaryRoot()
  try root.write(
    "codegen.yaml",
    manifest.replacingOccurrences(of: listed, with: "parameters: [\"_ amount: Decimal\", \"with key: IdempotencyKey\"]")
  )
  var errors: [String] = []
  let status = LinkGenCommand(
    arguments: [
      "check", "--root", repository.path, "--manifest", root.url.appendingPathComponent("codegen.yaml").path,
    ],
    standardOutput: { _ in }, standardError: { errors.append($0) }
  ).run()
  #expect(status == .failure)
  #expect(
    errors.joined().contains(
      "error: requirement 'charge' of service 'Payment' says mutating func charge(_:with:) throws, but protocol "
        + "PaymentGateway declares mutating func charge(_:key:) throws at Packages/Payment/Sources/Payment/"),
    "\(errors)")
}
