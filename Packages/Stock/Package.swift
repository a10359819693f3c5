// swift-tools-version: 6.2
// The Stock domain. Builds alone: `make build PKG=Stock`.
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
  name: "Stock",
  platforms: [.macOS(.v15)],
  products: [.library(name: "Stock", targets: ["Stock"])],
  dependencies: [
    .package(path: "../Menu")
  ],
  targets: [
    .target(name: "Stock", dependencies: [.product(name: "Menu", package: "Menu")], swiftSettings: features),
    .testTarget(name: "StockTests", dependencies: ["Stock"], swiftSettings: features),
  ],
  swiftLanguageModes: [.v6]
)
