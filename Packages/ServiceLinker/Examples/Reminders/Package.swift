// swift-tools-version: 6.2
// An app of no kiosk's on the Service Linker framework, as an adopter writes
// it: a feature with timed work and a notification sent once, kept on a
// durable store; its tests on virtual time, a scenario with a recording, and
// a replay executable. It depends on the framework by path and
// copies none of it; `make test` builds it from a copy in a temporary folder
// (AdoptionTests), so it stays true.
import PackageDescription

let package = Package(
  name: "Reminders",
  platforms: [.macOS(.v15)],
  dependencies: [.package(path: "../..")],
  targets: [
    .target(
      name: "Reminders",
      dependencies: [
        .product(name: "CanonicalJSON", package: "ServiceLinker"),
        .product(name: "FeatureKit", package: "ServiceLinker"),
        .product(name: "DurableStore", package: "ServiceLinker"),
      ]),
    // The app: reminders kept on a durable store, notifications sent once.
    .executableTarget(
      name: "reminders",
      dependencies: [
        "Reminders", .product(name: "CanonicalJSON", package: "ServiceLinker"),
        .product(name: "DurableStore", package: "ServiceLinker"),
      ]),
    .executableTarget(
      name: "reminders-replay",
      dependencies: ["Reminders", .product(name: "FeatureKit", package: "ServiceLinker")]),
    .testTarget(
      name: "RemindersTests",
      dependencies: [
        "Reminders",
        .product(name: "CanonicalJSON", package: "ServiceLinker"),
        .product(name: "FeatureKit", package: "ServiceLinker"),
        .product(name: "FeatureTesting", package: "ServiceLinker"),
        .product(name: "ScenarioTesting", package: "ServiceLinker"),
        .product(name: "VirtualTime", package: "ServiceLinker"),
        .product(name: "DurableStore", package: "ServiceLinker"),
      ]),
  ],
  swiftLanguageModes: [.v6]
)
