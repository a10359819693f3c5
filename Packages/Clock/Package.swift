// swift-tools-version: 6.2
// The Clock domain. Builds alone: `make build PKG=Clock`.
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
  name: "Clock",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "Clock", targets: ["Clock"]),
    // The generated recording mock and closure witness, for tests.
    .library(name: "ClockTesting", targets: ["ClockTesting"]),
  ],
  targets: [
    .target(name: "Clock", dependencies: [], swiftSettings: features),
    .target(name: "ClockTesting", dependencies: ["Clock"], swiftSettings: features),
    .testTarget(name: "ClockTests", dependencies: ["Clock"], swiftSettings: features),
  ],
  swiftLanguageModes: [.v6]
)
