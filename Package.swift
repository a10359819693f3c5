// swift-tools-version: 6.2
// The umbrella package: every domain package, the composition root, linkgen and
// the cross-package tests in one build graph, so that `swift test` here (what
// `make test` runs) builds each module once and runs every package's tests.
//
// Each package under Packages/ and tools/ also has its own Package.swift and
// builds alone (`make build PKG=Menu`); this manifest points at the same sources.
import PackageDescription

// No module needs an experimental feature but those that declare or use the
// `~Copyable` payment service (`HasPayment`): they enable
// SuppressedAssociatedTypes, so that its associated type may suppress Copyable.
let paymentFeatures: [SwiftSetting] = [.enableExperimentalFeature("SuppressedAssociatedTypes")]

/// The modules that declare or use `HasPayment`.
let paymentModules: Set<String> = ["Payment", "PaymentTesting", "Tabs"]

/// What the release build of a module on a till command's path gets: generic types
/// instantiated through their metadata accessors, which take the witness tables
/// they need, not through a mangled name that the runtime demangles and whose
/// conformances it looks up by scanning every conformance in the binary, about
/// 130,000 instructions each the first time. Half of what `kiosk open` did from
/// `main` on (README, "Install"). The kiosk's own targets only: a package that
/// depends on this one by URL builds none of them, and SwiftPM refuses unsafe
/// flags in what a dependency builds.
let commandPathSettings: [SwiftSetting] = [
  .unsafeFlags(
    ["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"], .when(configuration: .release))
]

/// The settings of a module: `paymentFeatures` where it declares or uses `HasPayment`.
func settings(_ module: String) -> [SwiftSetting] {
  (paymentModules.contains(module) ? paymentFeatures : []) + commandPathSettings
}

/// A domain package under Packages/: its name, the domains it imports, and
/// whether it has a `<Name>Testing` library: the recording mock, closure witness
/// and their links linkgen generates for a service marked `mock: true`.
struct DomainPackage {
  let name: String
  let uses: [String]
  var testing = false
}

let domainPackages: [DomainPackage] = [
  DomainPackage(name: "Menu", uses: []),
  DomainPackage(name: "Stock", uses: ["Menu"]),
  DomainPackage(name: "Journal", uses: ["JournalIO", "CRC32CHardware"]),
  DomainPackage(name: "Payment", uses: ["Journal"], testing: true),
  DomainPackage(name: "Clock", uses: ["VirtualTime"], testing: true),
  DomainPackage(name: "Tabs", uses: ["Menu", "Stock", "Payment", "Clock"]),
  DomainPackage(name: "HeadOffice", uses: ["CLibPQ"], testing: true),
  // linkgen:domains-end (`linkgen new-domain` lists new domains above this line)
]

/// The domains the composition root's worlds compose: KioskWorld's, and HeadOffice for
/// HeadOfficeWorld (`linkgen new-domain NAME --world KioskWorld` adds to it).
let kioskDomains = [
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

/// Test-support libraries linkgen generates for services marked `mock: true`:
/// a recording mock, a closure witness and their links.
let testingLibraries: [Target] = domainPackages.filter(\.testing).map(\.name).map { domain in
  Target.target(
    name: "\(domain)Testing",
    dependencies: [.target(name: domain)],
    path: "Packages/\(domain)/Sources/\(domain)Testing",
    swiftSettings: settings("\(domain)Testing")
  )
}

/// The framework (Packages/ServiceLinker): what any app reuses, naming no kiosk
/// type. `make check` fails when one of its targets imports a kiosk module.
let frameworkTargets: [Target] = [
  .target(name: "CanonicalJSON", path: "Packages/ServiceLinker/Sources/CanonicalJSON"),
  .target(name: "FeatureKit", dependencies: ["CanonicalJSON"], path: "Packages/ServiceLinker/Sources/FeatureKit"),
  .target(
    name: "DurableStore", dependencies: ["FeatureKit", "CanonicalJSON", "Journal"],
    path: "Packages/ServiceLinker/Sources/DurableStore"),
  .target(name: "VirtualTime", path: "Packages/ServiceLinker/Sources/VirtualTime"),
  .target(
    name: "FeatureTesting", dependencies: ["FeatureKit", "VirtualTime"],
    path: "Packages/ServiceLinker/Sources/FeatureTesting"),
  .target(
    name: "ScenarioTesting", dependencies: ["CanonicalJSON", "FeatureKit", "VirtualTime"],
    path: "Packages/ServiceLinker/Sources/ScenarioTesting"),
  .target(
    name: "_ServiceLinkerTestSupport", dependencies: ["VirtualTime"],
    path: "Packages/ServiceLinker/Sources/_ServiceLinkerTestSupport"),
  .testTarget(
    name: "CanonicalJSONTests", dependencies: ["CanonicalJSON", "_ServiceLinkerTestSupport"],
    path: "Packages/ServiceLinker/Tests/CanonicalJSONTests"),
  .testTarget(
    name: "FeatureKitTests",
    dependencies: ["FeatureKit", "CanonicalJSON", "ScenarioTesting", "FeatureTesting", "VirtualTime"],
    path: "Packages/ServiceLinker/Tests/FeatureKitTests"),
  // An app outside the repository adopts the framework (a nested SwiftPM build).
  .testTarget(
    name: "AdoptionTests", dependencies: ["_ServiceLinkerTestSupport"],
    path: "Packages/ServiceLinker/Tests/AdoptionTests"),
  .testTarget(
    name: "DurableStoreTests",
    dependencies: [
      "DurableStore", "FeatureKit", "CanonicalJSON", "VirtualTime", "_ServiceLinkerTestSupport", "Journal",
    ],
    path: "Packages/ServiceLinker/Tests/DurableStoreTests"),
  .testTarget(
    name: "VirtualTimeTests", dependencies: ["VirtualTime", "_ServiceLinkerTestSupport"],
    path: "Packages/ServiceLinker/Tests/VirtualTimeTests"),
]

let domainTargets: [Target] = domainPackages.flatMap { domain in
  [
    Target.target(
      name: domain.name,
      dependencies: domain.uses.map { .target(name: $0) },
      path: "Packages/\(domain.name)/Sources/\(domain.name)",
      swiftSettings: settings(domain.name)
    ),
    Target.testTarget(
      name: "\(domain.name)Tests",
      dependencies: [.target(name: domain.name)] + domain.uses.map { .target(name: $0) }
        + (domain.testing ? [.target(name: "\(domain.name)Testing")] : []),
      path: "Packages/\(domain.name)/Tests/\(domain.name)Tests",
      swiftSettings: settings(domain.name)
    ),
  ]
}

let package = Package(
  name: "ServiceLinker",
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "kiosk", targets: ["KioskCLI"]),
    .executable(name: "linkgen", targets: ["linkgen"]),
    .executable(name: "kiosk-bench", targets: ["Benchmarks"]),
    .executable(name: "kiosk-replay", targets: ["KioskReplayServer"]),
    .executable(name: "kiosk-hq", targets: ["KioskHQ"]),
    // What an adopter depends on, from this one URL (docs/adopting.md): the
    // framework's libraries, linkgen's core and its command plugin. `make check`
    // fails when Packages/ServiceLinker or tools/LinkGen has a product this list lacks.
    .library(name: "CanonicalJSON", targets: ["CanonicalJSON"]),
    .library(name: "FeatureKit", targets: ["FeatureKit"]),
    .library(name: "DurableStore", targets: ["DurableStore"]),
    .library(name: "VirtualTime", targets: ["VirtualTime"]),
    .library(name: "FeatureTesting", targets: ["FeatureTesting"]),
    .library(name: "ScenarioTesting", targets: ["ScenarioTesting"]),
    .library(name: "_ServiceLinkerTestSupport", targets: ["_ServiceLinkerTestSupport"]),
    .library(name: "LinkGenCore", targets: ["LinkGenCore"]),
    .plugin(name: "LinkGenPlugin", targets: ["LinkGenPlugin"]),
  ],
  targets: frameworkTargets + domainTargets + testingLibraries + [
    // The journal's system calls: a service domain of its own, linked by the
    // journal's environment (docs/journal.md).
    .target(name: "JournalIO", path: "Packages/Journal/Sources/JournalIO"),
    .target(name: "CRC32CHardware", path: "Packages/Journal/Sources/CRC32CHardware"),
    // The till's commands as data, their records, inverses and undo history:
    // generic over any world with the slices, and free of the journal's files
    // (it takes only the record writer from Journal), so that scenarios and
    // `kiosk-replay` run them without linking the composition root.
    .target(
      name: "KioskCommands",
      dependencies: ["Menu", "Stock", "Tabs", "Payment", "Clock", "Journal", "CanonicalJSON"],
      path: "Packages/KioskApp/Sources/KioskCommands",
      swiftSettings: paymentFeatures + commandPathSettings
    ),
    // The composition root.
    .target(
      name: "KioskApp",
      dependencies: ["KioskCommands", "JournalIO", "CanonicalJSON", "FeatureKit", "DurableStore"]
        + kioskDomains.map { .target(name: $0) },
      path: "Packages/KioskApp/Sources/KioskApp",
      swiftSettings: paymentFeatures + commandPathSettings
    ),
    .executableTarget(
      name: "KioskCLI",
      dependencies: ["KioskApp", "KioskCommands", "HeadOffice", "CanonicalJSON", "DurableStore"],
      path: "Packages/KioskApp/Sources/KioskCLI",
      swiftSettings: paymentFeatures + commandPathSettings
    ),
    .testTarget(
      name: "KioskAppTests",
      dependencies: [
        "KioskApp", "KioskCommands", "CanonicalJSON", "ClockTesting", "VirtualTime", "FeatureTesting", "DurableStore",
        "_ServiceLinkerTestSupport",
      ]
        + kioskDomains.map { .target(name: $0) },
      path: "Packages/KioskApp/Tests/KioskAppTests",
      exclude: ["Golden"],
      swiftSettings: paymentFeatures
    ),
    // The features scenarios and the replay server run: the kiosk's commands
    // on the scenario world, and their canonical JSON (docs/replay.md).
    .target(
      name: "KioskFeatures",
      dependencies: ["CanonicalJSON", "FeatureKit", "KioskCommands", "PaymentTesting"]
        + scenarioDomains.map { .target(name: $0) },
      path: "Packages/KioskApp/Sources/KioskFeatures",
      swiftSettings: paymentFeatures
    ),
    // The head office's side: the chain's report and its verification (docs/head-office.md).
    .executableTarget(
      name: "KioskHQ", dependencies: ["KioskApp", "KioskReports", "HeadOffice"],
      path: "Packages/KioskApp/Sources/KioskHQ"),
    // The chain's report as a manager reads it: text in columns, JSON, and a page of charts.
    .target(
      name: "KioskReports", dependencies: ["KioskApp", "HeadOffice"], path: "Packages/KioskApp/Sources/KioskReports",
      swiftSettings: paymentFeatures),
    .testTarget(
      name: "KioskReportsTests", dependencies: ["KioskReports", "HeadOffice"],
      path: "Packages/KioskApp/Tests/KioskReportsTests", swiftSettings: paymentFeatures),
    .executableTarget(
      name: "KioskReplayServer",
      dependencies: ["FeatureKit", "KioskFeatures"],
      path: "Packages/KioskApp/Sources/KioskReplayServer"
    ),
    .testTarget(
      name: "ScenarioTests",
      dependencies: [
        "ScenarioTesting", "CanonicalJSON", "FeatureKit", "KioskFeatures", "KioskCommands", "KioskApp",
        "PaymentTesting", "LinkGenCore", "KioskReplayServer",
      ]
        + kioskDomains.map { .target(name: $0) },
      path: "Packages/KioskApp/Tests/ScenarioTests",
      swiftSettings: paymentFeatures
    ),
    // A real PostgreSQL server for tests, started in a temporary folder (the head office's database).
    .target(name: "PostgresTestServer", path: "Packages/HeadOffice/Sources/PostgresTestServer"),
    // End-to-end tests of the built `kiosk`.
    .testTarget(
      name: "KioskCLITests",
      dependencies: ["KioskCLI", "KioskHQ", "Benchmarks", "_ServiceLinkerTestSupport", "PostgresTestServer"],
      path: "Packages/KioskApp/Tests/KioskCLITests",
      exclude: ["Golden", "Fixtures"]
    ),
    // Cross-package tests: the generated TestWorld and the seed's tests.
    .testTarget(
      name: "IntegrationTests",
      dependencies: ["KioskApp", "KioskCommands", "PaymentTesting", "ClockTesting", "PostgresTestServer"]
        + kioskDomains.map { .target(name: $0) },
      path: "Tests/IntegrationTests",
      swiftSettings: paymentFeatures
    ),
    // The benchmarks, built in release by `make bench`.
    .executableTarget(
      name: "Benchmarks",
      dependencies: [
        "KioskApp", "KioskCommands", "LinkGenCore", "JournalIO", "PostgresTestServer", "CSQLite", "KioskReports",
        "_ServiceLinkerTestSupport", "DurableStore", "FeatureKit", "CanonicalJSON",
      ]
        + kioskDomains.map { .target(name: $0) },
      path: "Benchmarks/Sources/Benchmarks",
      swiftSettings: paymentFeatures
    ),
    // libpq's header, for the head office's database link; libpq itself is
    // loaded with dlopen by the first connection, so no binary links it.
    .systemLibrary(name: "CLibPQ", path: "Packages/HeadOffice/Sources/CLibPQ"),
    // SQLite, which the benchmarks compare the journal's group commit with.
    .systemLibrary(
      name: "CSQLite",
      path: "Benchmarks/Sources/CSQLite",
      pkgConfig: "sqlite3",
      providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
    ),
    // linkgen.
    .systemLibrary(
      name: "CYaml",
      path: "tools/LinkGen/Sources/CYaml",
      pkgConfig: "yaml-0.1",
      providers: [.apt(["libyaml-dev"]), .brew(["libyaml"])]
    ),
    .target(name: "LinkGenCore", dependencies: ["CYaml"], path: "tools/LinkGen/Sources/LinkGenCore"),
    .executableTarget(name: "linkgen", dependencies: ["LinkGenCore"], path: "tools/LinkGen/Sources/linkgen"),
    // `swift package --allow-writing-to-package-directory linkgen generate`: linkgen with no Makefile.
    .plugin(
      name: "LinkGenPlugin",
      capability: .command(
        intent: .custom(verb: "linkgen", description: "Run linkgen (generate, check, map, new-domain) on codegen.yaml"),
        permissions: [.writeToPackageDirectory(reason: "linkgen writes Generated/ from codegen.yaml")]
      ),
      dependencies: ["linkgen"],
      path: "tools/LinkGen/Plugins/LinkGenPlugin"
    ),
    .testTarget(
      name: "LinkGenCoreTests",
      dependencies: ["LinkGenCore"],
      path: "tools/LinkGen/Tests/LinkGenCoreTests",
      exclude: ["Golden", "Corpus"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
