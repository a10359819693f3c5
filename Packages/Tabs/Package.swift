// swift-tools-version: 6.2
// The Tabs domain. Builds alone: `make build PKG=Tabs`.
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
  name: "Tabs",
  platforms: [.macOS(.v15)],
  products: [.library(name: "Tabs", targets: ["Tabs"])],
  dependencies: [
    .package(path: "../Menu"),
    .package(path: "../Stock"),
    .package(path: "../Payment"),
    .package(path: "../Clock"),
  ],
  targets: [
    .target(
      name: "Tabs",
      dependencies: [
        .product(name: "Menu", package: "Menu"), .product(name: "Stock", package: "Stock"),
        .product(name: "Payment", package: "Payment"), .product(name: "Clock", package: "Clock"),
      ], swiftSettings: features),
    .testTarget(name: "TabsTests", dependencies: ["Tabs"], swiftSettings: features),
  ],
  swiftLanguageModes: [.v6]
)
