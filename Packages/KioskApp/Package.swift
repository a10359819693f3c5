// swift-tools-version: 6.2
// The composition root: the only package that names the concrete world.
// Builds alone: `make build PKG=KioskApp`.
import PackageDescription

// SuppressedAssociatedTypes, the one experimental feature, and only because
// this package uses `HasPayment`, whose linked gateway may be `~Copyable`.
let features: [SwiftSetting] = [.enableExperimentalFeature("SuppressedAssociatedTypes")]

/// The domains the package's worlds compose: KioskWorld's, and HeadOffice for HeadOfficeWorld
/// (`linkgen new-domain NAME --world KioskWorld` adds to it).
let domains = [
  "Menu", "Stock", "Tabs", "Payment", "Clock", "Journal",
  "HeadOffice",
  // linkgen:KioskWorld-domains-end
]

/// The domains ScenarioWorld composes: KioskWorld's but the journal. It takes
/// KioskWorld's snapshot, so `linkgen new-domain NAME --world KioskWorld` adds a
/// new slice here too.
let scenarioDomains = [
  "Menu", "Stock", "Tabs", "Payment", "Clock",
  // linkgen:ScenarioWorld-domains-end
]

let package = Package(
  name: "KioskApp",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "KioskApp", targets: ["KioskApp"]),
    .executable(name: "kiosk", targets: ["KioskCLI"]),
    .library(name: "KioskFeatures", targets: ["KioskFeatures"]),
    .executable(name: "kiosk-replay", targets: ["KioskReplayServer"]),
    .executable(name: "kiosk-hq", targets: ["KioskHQ"]),
    .library(name: "KioskReports", targets: ["KioskReports"]),
  ],
  dependencies: domains.map { .package(path: "../\($0)") } + [.package(path: "../ServiceLinker")],
  targets: [
    // The till's commands, records, inverses and undo history, free of the
    // journal's files: from Journal it takes only the record writer, and from
    // CanonicalJSON the one form its records and slices are written in.
    .target(
      name: "KioskCommands",
      dependencies: ["Menu", "Stock", "Tabs", "Payment", "Clock", "Journal"].map { .product(name: $0, package: $0) }
        + [.product(name: "CanonicalJSON", package: "ServiceLinker")],
      swiftSettings: features
    ),
    // The composition root: the world, the shell, and the till as a feature
    // of the framework's durable store (KioskTill), on the kiosk's own journal.
    .target(
      name: "KioskApp",
      dependencies: ["KioskCommands", .product(name: "JournalIO", package: "Journal")]
        + ["CanonicalJSON", "FeatureKit", "DurableStore"].map { .product(name: $0, package: "ServiceLinker") }
        + domains.map { .product(name: $0, package: $0) },
      swiftSettings: features
    ),
    .executableTarget(
      name: "KioskCLI",
      dependencies: [
        "KioskApp", "KioskCommands", .product(name: "HeadOffice", package: "HeadOffice"),
        .product(name: "CanonicalJSON", package: "ServiceLinker"),
        .product(name: "DurableStore", package: "ServiceLinker"),
      ],
      swiftSettings: features),
    // Scenarios and the replay server (docs/replay.md): the kiosk's commands on
    // the scenario world, which links the processor's recording mock.
    .target(
      name: "KioskFeatures",
      dependencies: ["KioskCommands", .product(name: "PaymentTesting", package: "Payment")]
        + scenarioDomains.map { .product(name: $0, package: $0) }
        + ["CanonicalJSON", "FeatureKit"].map { .product(name: $0, package: "ServiceLinker") },
      swiftSettings: features
    ),
    .executableTarget(
      name: "KioskReplayServer",
      dependencies: ["KioskFeatures", .product(name: "FeatureKit", package: "ServiceLinker")]),
    .testTarget(
      name: "ScenarioTests",
      dependencies: ["KioskFeatures", "KioskCommands", "KioskApp", "KioskReplayServer"]
        + domains.map { .product(name: $0, package: $0) }
        + ["ScenarioTesting", "CanonicalJSON", "FeatureKit"].map { .product(name: $0, package: "ServiceLinker") },
      swiftSettings: features
    ),
    .testTarget(
      name: "KioskAppTests",
      dependencies: [
        "KioskApp", "KioskCommands", .product(name: "ClockTesting", package: "Clock"),
        .product(name: "CanonicalJSON", package: "ServiceLinker"),
        .product(name: "VirtualTime", package: "ServiceLinker"),
        .product(name: "FeatureTesting", package: "ServiceLinker"),
        .product(name: "DurableStore", package: "ServiceLinker"),
        .product(name: "_ServiceLinkerTestSupport", package: "ServiceLinker"),
      ],
      exclude: ["Golden"],
      swiftSettings: features),
    // The head office's side: the chain's report and its verification (docs/head-office.md).
    .executableTarget(
      name: "KioskHQ", dependencies: ["KioskApp", "KioskReports", .product(name: "HeadOffice", package: "HeadOffice")]),
    // The chain's report as a manager reads it: text in columns, JSON, and a page of charts.
    .target(
      name: "KioskReports", dependencies: ["KioskApp", .product(name: "HeadOffice", package: "HeadOffice")],
      swiftSettings: features),
    .testTarget(
      name: "KioskReportsTests",
      dependencies: ["KioskReports", .product(name: "HeadOffice", package: "HeadOffice")], swiftSettings: features),
    .testTarget(
      name: "KioskCLITests",
      dependencies: [
        "KioskCLI", "KioskHQ", .product(name: "_ServiceLinkerTestSupport", package: "ServiceLinker"),
        .product(name: "PostgresTestServer", package: "HeadOffice"),
      ],
      exclude: ["Golden", "Fixtures"]),
  ],
  swiftLanguageModes: [.v6]
)
