// swift-tools-version: 6.2
// The Clock domain. Builds alone: `make build PKG=Clock`.
import PackageDescription

let package = Package(
  name: "Clock",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "Clock", targets: ["Clock"]),
    // The generated recording mock and closure witness, for tests.
    .library(name: "ClockTesting", targets: ["ClockTesting"]),
  ],
  // Virtual time comes from the framework: `VirtualClock` links its `TestClock`.
  dependencies: [.package(path: "../ServiceLinker")],
  targets: [
    .target(name: "Clock", dependencies: [.product(name: "VirtualTime", package: "ServiceLinker")]),
    .target(name: "ClockTesting", dependencies: ["Clock"]),
    .testTarget(
      name: "ClockTests", dependencies: ["Clock", .product(name: "VirtualTime", package: "ServiceLinker")]),
  ],
  swiftLanguageModes: [.v6]
)
