// swift-tools-version: 6.2
// The composition root: the only package that names the concrete world.
// Builds alone: `make build PKG=KioskApp`.
import PackageDescription

// Experimental features, and why this package needs each:
// - CoroutineAccessors: the world witnesses `{ read }` / `{ read set }` capabilities
//   with stored properties and `read`/`modify` accessors (no copies).
// - SuppressedAssociatedTypes: the world links a `~Copyable` payment gateway.
let features: [SwiftSetting] = [
  .enableExperimentalFeature("CoroutineAccessors"),
  .enableExperimentalFeature("SuppressedAssociatedTypes"),
]

let domains = ["Menu", "Stock", "Tabs", "Payment", "Clock", "Journal"]

let package = Package(
  name: "KioskApp",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "KioskApp", targets: ["KioskApp"]),
    .executable(name: "kiosk", targets: ["KioskCLI"]),
  ],
  dependencies: domains.map { .package(path: "../\($0)") },
  targets: [
    // Defines a runtime symbol release builds of KioskShell need on Swift 6.3.1.
    .target(name: "CoroutineRuntimeShim"),
    .target(
      name: "KioskApp",
      dependencies: domains.map { .product(name: $0, package: $0) } + ["CoroutineRuntimeShim"],
      swiftSettings: features
    ),
    .executableTarget(name: "KioskCLI", dependencies: ["KioskApp"], swiftSettings: features),
    .testTarget(name: "KioskAppTests", dependencies: ["KioskApp"], swiftSettings: features),
    // No experimental features: see the root Package.swift.
    .testTarget(name: "KioskCLITests", dependencies: ["KioskCLI"]),
  ],
  swiftLanguageModes: [.v6]
)
