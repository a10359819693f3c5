// swift-tools-version: 6.2
// The Payment domain. Builds alone: `make build PKG=Payment`.
import PackageDescription

// SuppressedAssociatedTypes, the one experimental feature, and only because
// this package declares `HasPayment`, whose linked gateway may be `~Copyable`.
let features: [SwiftSetting] = [.enableExperimentalFeature("SuppressedAssociatedTypes")]

let package = Package(
  name: "Payment",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "Payment", targets: ["Payment"]),
    // The generated recording mock and closure witness, for tests.
    .library(name: "PaymentTesting", targets: ["PaymentTesting"]),
  ],
  // The local processor keeps its ledger in the journal's framing: reuse, not a copy.
  dependencies: [.package(path: "../Journal")],
  targets: [
    .target(
      name: "Payment", dependencies: [.product(name: "Journal", package: "Journal")], swiftSettings: features),
    .target(name: "PaymentTesting", dependencies: ["Payment"], swiftSettings: features),
    .testTarget(name: "PaymentTests", dependencies: ["Payment"], swiftSettings: features),
  ],
  swiftLanguageModes: [.v6]
)
