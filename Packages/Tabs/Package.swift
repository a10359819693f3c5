// swift-tools-version: 6.2
// The Tabs domain. Builds alone: `make build PKG=Tabs`.
import PackageDescription

// SuppressedAssociatedTypes, the one experimental feature, and only because
// this package uses `HasPayment`, whose linked gateway may be `~Copyable`.
let features: [SwiftSetting] = [.enableExperimentalFeature("SuppressedAssociatedTypes")]

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
