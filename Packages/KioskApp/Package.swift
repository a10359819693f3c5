// swift-tools-version: 6.2
// The composition root: the only package that names the concrete world.
// Builds alone: `make build PKG=KioskApp`.
import PackageDescription

// SuppressedAssociatedTypes, the one experimental feature, and only because
// this package uses `HasPayment`, whose linked gateway may be `~Copyable`.
let features: [SwiftSetting] = [.enableExperimentalFeature("SuppressedAssociatedTypes")]

/// The domains KioskWorld composes (`linkgen new-domain NAME --world KioskWorld` adds to it).
let domains = [
  "Menu", "Stock", "Tabs", "Payment", "Clock", "Journal",
  // linkgen:KioskWorld-domains-end
]

let package = Package(
  name: "KioskApp",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "KioskApp", targets: ["KioskApp"]),
    .executable(name: "kiosk", targets: ["KioskCLI"]),
    .library(name: "KioskFeatures", targets: ["KioskFeatures"]),
    .library(name: "ScenarioTesting", targets: ["ScenarioTesting"]),
    .executable(name: "kiosk-replay", targets: ["KioskReplayServer"]),
  ],
  dependencies: domains.map { .package(path: "../\($0)") },
  targets: [
    .target(
      name: "KioskApp",
      dependencies: domains.map { .product(name: $0, package: $0) },
      swiftSettings: features
    ),
    .executableTarget(name: "KioskCLI", dependencies: ["KioskApp"], swiftSettings: features),
    // Scenarios and the replay server (docs/replay.md): the kiosk's commands on
    // the scenario world, which links the processor's recording mock.
    .target(
      name: "KioskFeatures",
      dependencies: ["KioskApp", .product(name: "PaymentTesting", package: "Payment")]
        + domains.map { .product(name: $0, package: $0) },
      swiftSettings: features
    ),
    .executableTarget(name: "KioskReplayServer", dependencies: ["KioskFeatures"]),
    .target(name: "ScenarioTesting", dependencies: ["KioskFeatures"]),
    .testTarget(
      name: "ScenarioTests",
      dependencies: ["ScenarioTesting", "KioskFeatures", "KioskReplayServer"]
        + domains.map { .product(name: $0, package: $0) },
      swiftSettings: features
    ),
    .testTarget(
      name: "KioskAppTests", dependencies: ["KioskApp", .product(name: "ClockTesting", package: "Clock")],
      swiftSettings: features),
    .testTarget(name: "KioskCLITests", dependencies: ["KioskCLI"], exclude: ["Golden"]),
  ],
  swiftLanguageModes: [.v6]
)
