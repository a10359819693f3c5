// swift-tools-version: 6.2
// `kiosk-bench`: every benchmark, as markdown. `make bench` builds it in release
// through the root package; this manifest builds it on its own.
import PackageDescription

// SuppressedAssociatedTypes, the one experimental feature, and only because
// `BenchWorld` consumes the `~Copyable` payment service (`HasPayment`).
let features: [SwiftSetting] = [.enableExperimentalFeature("SuppressedAssociatedTypes")]

/// The domains BenchWorld (and the KioskApp it uses) compose (`linkgen new-domain NAME --world …` adds to it).
let domains = [
  "Menu", "Stock", "Tabs", "Payment", "Clock", "Journal",
  // linkgen:BenchWorld-domains-end
]

let package = Package(
  name: "Benchmarks",
  platforms: [.macOS(.v15)],
  products: [.executable(name: "kiosk-bench", targets: ["Benchmarks"])],
  dependencies: domains.map { .package(path: "../Packages/\($0)") } + [
    .package(path: "../Packages/KioskApp"), .package(path: "../tools/LinkGen"),
    .package(path: "../Packages/HeadOffice"), .package(path: "../Packages/ServiceLinker"),
  ],
  targets: [
    .executableTarget(
      name: "Benchmarks",
      dependencies: domains.map { .product(name: $0, package: $0) } + [
        .product(name: "KioskApp", package: "KioskApp"), .product(name: "LinkGenCore", package: "LinkGen"),
        .product(name: "JournalIO", package: "Journal"),
        .product(name: "HeadOffice", package: "HeadOffice"),
        .product(name: "PostgresTestServer", package: "HeadOffice"), "CSQLite",
        .product(name: "KioskReports", package: "KioskApp"),
        .product(name: "_ServiceLinkerTestSupport", package: "ServiceLinker"),
        .product(name: "DurableStore", package: "ServiceLinker"),
        .product(name: "FeatureKit", package: "ServiceLinker"),
        .product(name: "CanonicalJSON", package: "ServiceLinker"),
      ],
      swiftSettings: features
    ),
    // SQLite, which the journal's group commit is compared with.
    .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]),
  ],
  swiftLanguageModes: [.v6]
)
