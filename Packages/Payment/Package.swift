// swift-tools-version: 6.2
// The Payment domain. Builds alone: `make build PKG=Payment`.
import PackageDescription

// Experimental features, and why this package needs each:
// - CoroutineAccessors: capabilities are `{ read }` / `{ read set }` requirements
//   witnessed by `read`/`modify`, so slices are reached without a copy.
// - SuppressedAssociatedTypes: service capabilities allow `~Copyable` implementations.
let features: [SwiftSetting] = [
  .enableExperimentalFeature("CoroutineAccessors"),
  .enableExperimentalFeature("SuppressedAssociatedTypes"),
]

let package = Package(
  name: "Payment",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "Payment", targets: ["Payment"]),
    // The generated recording mock and closure witness, for tests.
    .library(name: "PaymentTesting", targets: ["PaymentTesting"]),
  ],
  targets: [
    .target(name: "Payment", dependencies: [], swiftSettings: features),
    .target(name: "PaymentTesting", dependencies: ["Payment"], swiftSettings: features),
    .testTarget(name: "PaymentTests", dependencies: ["Payment"], swiftSettings: features),
  ],
  swiftLanguageModes: [.v6]
)
