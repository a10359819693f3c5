// swift-tools-version: 6.2
// The Service Linker framework: what any app reuses, naming no kiosk type.
// Builds alone: `make build PKG=ServiceLinker`; `make check` fails when one of
// its targets imports a module of the kiosk. Its one dependency is the
// write-ahead log (Packages/Journal), which names no kiosk type either.
import PackageDescription

let package = Package(
  name: "ServiceLinker",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "CanonicalJSON", targets: ["CanonicalJSON"]),
    .library(name: "FeatureKit", targets: ["FeatureKit"]),
    .library(name: "DurableStore", targets: ["DurableStore"]),
    .library(name: "VirtualTime", targets: ["VirtualTime"]),
    .library(name: "FeatureTesting", targets: ["FeatureTesting"]),
    .library(name: "ScenarioTesting", targets: ["ScenarioTesting"]),
    .library(name: "_ServiceLinkerTestSupport", targets: ["_ServiceLinkerTestSupport"]),
  ],
  dependencies: [.package(path: "../Journal")],
  targets: [
    // The canonical JSON form: a strict parser, the writer, cursors with paths, and Codable's bridge.
    .target(name: "CanonicalJSON"),
    // Features (state, action, effect, outcome, one step), the replay registry and its stdio server.
    .target(name: "FeatureKit", dependencies: ["CanonicalJSON"]),
    // A feature run over a write-ahead journal: synced steps, intents before outside effects, recovery, periods.
    .target(
      name: "DurableStore",
      dependencies: ["FeatureKit", "CanonicalJSON", .product(name: "Journal", package: "Journal")]),
    // Virtual time: a `TestClock` that is a plain `Clock`.
    .target(name: "VirtualTime"),
    // The exhaustive TestStore: send, receive, expectEffects, advance, finish, teardown.
    .target(name: "FeatureTesting", dependencies: ["FeatureKit", "VirtualTime"]),
    // The scenario DSL (Given / When / Advance / Then / Branch) and its recordings, for any feature.
    .target(name: "ScenarioTesting", dependencies: ["CanonicalJSON", "FeatureKit", "VirtualTime"]),
    // What test modules share: a seeded generator, a lock box, temporary folders, waits, clock expectations.
    .target(name: "_ServiceLinkerTestSupport", dependencies: ["VirtualTime"]),
    .testTarget(name: "CanonicalJSONTests", dependencies: ["CanonicalJSON", "_ServiceLinkerTestSupport"]),
    .testTarget(
      name: "FeatureKitTests",
      dependencies: ["FeatureKit", "CanonicalJSON", "ScenarioTesting", "FeatureTesting", "VirtualTime"]),
    // An app outside the repository adopts the framework (a nested SwiftPM build of Examples/Reminders).
    .testTarget(name: "AdoptionTests", dependencies: ["_ServiceLinkerTestSupport"]),
    .testTarget(
      name: "DurableStoreTests",
      dependencies: [
        "DurableStore", "FeatureKit", "CanonicalJSON", "VirtualTime", "_ServiceLinkerTestSupport",
        .product(name: "Journal", package: "Journal"),
      ]),
    .testTarget(name: "VirtualTimeTests", dependencies: ["VirtualTime", "_ServiceLinkerTestSupport"]),
  ],
  swiftLanguageModes: [.v6]
)
