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
  targets: [
    .target(name: "Clock", dependencies: []),
    .target(name: "ClockTesting", dependencies: ["Clock"]),
    .testTarget(name: "ClockTests", dependencies: ["Clock"]),
  ],
  swiftLanguageModes: [.v6]
)
