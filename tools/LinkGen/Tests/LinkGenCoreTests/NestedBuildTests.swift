import Foundation
import LinkGenCore
import Testing

extension Tag {
  /// Tests that run a whole SwiftPM build of generated code: slow, so
  /// `make test-fast` skips them (`SKIP_NESTED_BUILDS=1`).
  @Tag static var nestedBuild: Tag
}

/// Whether this run builds generated packages with SwiftPM (`make test`), or
/// skips those builds (`make test-fast` sets `SKIP_NESTED_BUILDS=1`).
let nestedBuildsEnabled = ProcessInfo.processInfo.environment["SKIP_NESTED_BUILDS"].map { $0.isEmpty } ?? true

/// The tests that compile what linkgen writes. Each one builds one throwaway
/// package, and the cases inside it share that package's build: one cold build
/// per test, then incremental ones. They run side by side: on two cores, two
/// builds at once finish sooner than one after the other (18 s against 42 s).
@Suite(
  .tags(.nestedBuild),
  .enabled(if: nestedBuildsEnabled, "SKIP_NESTED_BUILDS is set: make test-fast skips SwiftPM builds"))
struct NestedBuildTests {
  /// A root package in the layout `new-domain` expects: the domain list it
  /// edits, each listed package's sources and tests compiled as targets.
  static let umbrellaManifest = """
    // swift-tools-version: 6.2
    import PackageDescription

    struct DomainPackage {
      let name: String
      let uses: [String]
      var testing = false
    }

    let domainPackages: [DomainPackage] = [
      // linkgen:domains-end (new domains go above this line)
    ]

    let package = Package(
      name: "Scaffolds",
      platforms: [.macOS(.v15)],
      targets: domainPackages.flatMap { domain in
        let testing = domain.testing ? ["\\(domain.name)Testing"] : []
        return [
          Target.target(
            name: domain.name, path: "Packages/\\(domain.name)/Sources/\\(domain.name)"),
          Target.testTarget(
            name: "\\(domain.name)Tests", dependencies: [.target(name: domain.name)] + testing.map { .target(name: $0) },
            path: "Packages/\\(domain.name)/Tests/\\(domain.name)Tests"),
        ] + testing.map { name in
          Target.target(
            name: name, dependencies: [.target(name: domain.name)],
            path: "Packages/\\(domain.name)/Sources/\\(name)")
        }
      }
    )

    """

  /// Scaffolds one domain of each kind into a throwaway root and runs `swift
  /// test` there once: every scaffold must compile against its generated
  /// capabilities and its one test must pass, with no hand edit, and the root
  /// manifest `new-domain` edited must list them.
  @Test func everyScaffoldKindBuildsAndPassesItsOwnTest() throws {
    let root = try TemporaryRoot()
    try root.write("codegen.yaml", commentedManifest)
    try root.write("Package.swift", Self.umbrellaManifest)
    let names = ScaffoldKind.allCases.map { "Loyalty\($0.rawValue.capitalized)" }
    for (kind, name) in zip(ScaffoldKind.allCases, names) {
      let (status, _, errors) = root.run(["new-domain", name, "--kind", kind.rawValue])
      #expect(status == .success, "\(errors)")
    }
    let (status, text) = try swift(["test", "--package-path", root.url.path])
    #expect(status == 0, "\(text)")
    for name in names {
      #expect(text.contains("\(name)Tests"), "no test of \(name) ran:\n\(text)")
    }
    #expect(text.contains("passed after"))
  }

  /// A service whose hand-written protocol drifts from codegen.yaml must not
  /// compile: the generated requirement check (manifest → protocol) and the
  /// generated mock and witness (protocol → manifest) catch both directions.
  /// Both directions build the same package in turn, so the second build is
  /// incremental.
  @Test func aProtocolThatDriftsFromTheManifestDoesNotCompile() throws {
    let root = try TemporaryRoot()
    try root.write(
      "codegen.yaml",
      """
      domains:
        Probe:
          service: KioskProbe
          mock: true
          links: { Live: { impl: LiveProbe } }
          requirements:
            charge: { parameters: ["_ amount: Int"], returns: String, mutating: true }

      """)
    #expect(root.run(["generate"]).0 == .success)
    try root.write(
      "Package.swift",
      """
      // swift-tools-version: 6.2
      import PackageDescription
      let package = Package(
        name: "Probe",
        platforms: [.macOS(.v15)],
        targets: [
          .target(name: "Probe"),
          .target(name: "ProbeTesting", dependencies: ["Probe"]),
        ]
      )

      """)
    for (module, folder) in [("Probe", "Probe"), ("ProbeTesting", "ProbeTesting")] {
      try FileManager.default.createDirectory(
        at: root.url.appendingPathComponent("Sources/\(module)"), withIntermediateDirectories: true)
      try FileManager.default.createSymbolicLink(
        atPath: root.url.appendingPathComponent("Sources/\(module)/Generated").path,
        withDestinationPath: "../../Generated/\(folder)")
    }
    let drifts = [
      ("mutating func charge(_ amount: Int) -> Int", "KioskProbe+Requirements.swift"),
      ("mutating func charge(_ amount: Int) -> String\n  func refund() -> Bool", "does not conform"),
    ]
    for (protocolBody, expected) in drifts {
      try root.write(
        "Sources/Probe/Probe.swift",
        """
        public protocol KioskProbe {
          \(protocolBody)
        }
        public struct LiveProbe: KioskProbe {
          public init() {}
          public mutating func charge(_ amount: Int) -> String { "" }
          public mutating func charge(_ amount: Int) -> Int { 0 }
          public func refund() -> Bool { true }
        }

        """)
      let (status, text) = try swift(["build", "--package-path", root.url.path])
      #expect(status != 0, "the drift compiled:\n\(text)")
      #expect(text.contains(expected), "\(text)")
    }
  }

  /// The generator's contract, as a property: every manifest linkgen accepts
  /// produces Swift that type-checks. Random manifests (names, kinds, links,
  /// demands, worlds, requirements, docs) are drawn from a grammar that
  /// includes names and texts that once broke it; each accepted one is
  /// generated, given the hand-written types it names, and type-checked with
  /// `swiftc -typecheck` as one module. `LINKGEN_PROPERTY_RUNS` (default 2, to keep `make test` short)
  /// sets how many accepted manifests to check; `LINKGEN_PROPERTY_SEED` replays one.
  @Test func everyAcceptedRandomManifestTypeChecks() throws {
    let environment = ProcessInfo.processInfo.environment
    let runs = environment["LINKGEN_PROPERTY_RUNS"].flatMap(Int.init) ?? 2
    let seed = environment["LINKGEN_PROPERTY_SEED"].flatMap(UInt64.init) ?? UInt64.random(in: 0...UInt64.max)
    var accepted = 0
    var attempt: UInt64 = 0
    while accepted < runs, attempt < UInt64(runs * 20) {
      attempt += 1
      var generator = RandomManifest(seed: seed &+ attempt)
      let text = generator.text()
      guard let manifest = try? ManifestDecoder.decode(text) else { continue }
      accepted += 1
      let (status, output) = try typeCheck(manifest)
      #expect(
        status == 0, "seed \(seed &+ attempt) (LINKGEN_PROPERTY_SEED=\(seed) replays the run):\n\(text)\n\(output)")
    }
    #expect(accepted == runs, "only \(accepted) of \(attempt) random manifests were accepted")
  }

  /// A world's generated snapshot covers every state slice it composes: a
  /// slice added to the manifest is in the snapshot after the next generate,
  /// and `restore` brings it back with the others. Compiled and run.
  @Test func aSliceAddedToAWorldIsCoveredByItsSnapshotAndRestore() throws {
    func manifest(loyalty: Bool) -> String {
      """
      domains:
        Menu: { state: MenuState }
        Stock: { state: StockState }
      \(loyalty ? "  Loyalty: { state: LoyaltyState }\n" : "")
      worlds:
        ShopWorld:
          module: Shop
          domains: [Menu, Stock\(loyalty ? ", Loyalty" : "")]
          snapshot: ShopSnapshot
      """
    }
    let before = Generator.files(for: try ManifestDecoder.decode(manifest(loyalty: false)))
    #expect(before["Generated/Shop/ShopSnapshot.swift"]?.contains("loyalty") == false)
    let after = try ManifestDecoder.decode(manifest(loyalty: true))
    let root = try TemporaryRoot()
    var paths: [String] = []
    for (path, contents) in Generator.files(for: after) {
      let kept = contents.split(separator: "\n", omittingEmptySubsequences: false).filter { line in
        !["import Menu", "import Stock", "import Loyalty", "import Shop"].contains(String(line))
      }
      let flat = path.replacingOccurrences(of: "/", with: "_")
      try root.write(flat, kept.joined(separator: "\n"))
      paths.append(root.url.appendingPathComponent(flat).path)
    }
    try root.write(
      "main.swift",
      """
      public struct MenuState: Codable, Equatable, Sendable {
        var items: [String] = []
        public init(items: [String] = []) { self.items = items }
      }
      public struct StockState: Codable, Equatable, Sendable {
        var units = 0
        public init(units: Int = 0) { self.units = units }
      }
      public struct LoyaltyState: Codable, Equatable, Sendable {
        var points: [String: Int] = [:]
        public init(points: [String: Int] = [:]) { self.points = points }
      }
      struct ShopWorld { var menu: MenuState; var stock: StockState; var loyalty: LoyaltyState }
      var world = ShopWorld(menu: .init(items: ["latte"]), stock: .init(units: 3), loyalty: .init(points: ["ada": 2]))
      let saved = world.snapshot
      world.menu.items.append("mocha")
      world.stock.units = 0
      world.loyalty.points["ada"] = 99
      world.restore(saved)
      guard world.loyalty == LoyaltyState(points: ["ada": 2]), world.menu.items == ["latte"], world.stock.units == 3,
        world.snapshot == saved, !saved.canonicalJSON().isEmpty
      else { fatalError("restore missed a slice") }
      print("restored every slice")
      """)
    paths.append(root.url.appendingPathComponent("main.swift").path)
    let binary = root.url.appendingPathComponent("shop").path
    let (status, output) = try swiftc(["-swift-version", "6", "-o", binary] + paths)
    #expect(status == 0, "\(output)")
    let (runStatus, runOutput) = try toolchain(binary, [])
    #expect(runStatus == 0 && runOutput == "restored every slice\n", "\(runOutput)")
  }

  /// docs/access-map.md is what `linkgen map` makes of this repository's built
  /// modules (the test runs after the build): a stale map fails here.
  @Test func theAccessMapInDocsIsCurrent() throws {
    let repository = thisRepository
    let output = FileManager.default.temporaryDirectory.appendingPathComponent("access-map-\(UUID().uuidString).md")
    defer { try? FileManager.default.removeItem(at: output) }
    var errors: [String] = []
    let status = LinkGenCommand(
      arguments: ["map", "--root", repository.path, "--output", output.path], standardOutput: { _ in },
      standardError: { errors.append($0) }
    ).run()
    #expect(status == .success, "\(errors)")
    let made = try String(contentsOf: output, encoding: .utf8)
    let checkedIn = try String(contentsOf: repository.appendingPathComponent("docs/access-map.md"), encoding: .utf8)
    #expect(made == checkedIn, "docs/access-map.md is stale: run 'make map'")
    #expect(!made.contains("Not read"), "every module of this repository is read, system libraries' importers too")
  }

  /// `linkgen symbol-graphs`, what `make docs` reads, writes the public graph of a
  /// module that imports a C target (Journal imports CRC32CHardware) from this
  /// repository's build, and leaves its internal symbols out.
  @Test func symbolGraphsReadAModuleImportingACTarget() throws {
    let repository = thisRepository
    let output = FileManager.default.temporaryDirectory.appendingPathComponent("graphs-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: output) }
    var errors: [String] = []
    let status = LinkGenCommand(
      arguments: ["symbol-graphs", "Journal", "--root", repository.path, "--output", output.path],
      standardOutput: { _ in }, standardError: { errors.append($0) }
    ).run()
    #expect(status == .success, "\(errors)")
    let graph =
      try JSONSerialization.jsonObject(
        with: Data(contentsOf: output.appendingPathComponent("Journal/Journal.symbols.json"))) as? [String: Any]
    let names = (graph?["symbols"] as? [[String: Any]] ?? []).compactMap {
      ($0["names"] as? [String: Any])?["title"] as? String
    }
    #expect(names.contains("JournalJSONWriter") && names.contains("JournalJSONReader"), "\(names.prefix(20))")
    #expect(!names.contains("appendSeparated(capacity:_:)"), "an internal method is not in the public graph")
  }

  /// The mock shapes a random manifest rarely draws: overloads of one method,
  /// a result with only a `mockDefault`, arguments that cannot be `Equatable`
  /// next to ones that can, and a requirement without parameters.
  @Test func overloadsDefaultsAndUnequatableArgumentsTypeCheck() throws {
    let manifest = try ManifestDecoder.decode(
      """
      domains:
        Pay:
          service: PayService
          mock: true
          links: { Live: { impl: LivePay } }
          requirements:
            charge: { parameters: ["_ amount: Int", "key: String"], returns: String, throws: true }
            chargeCents: { name: charge, parameters: ["cents: Int"], returns: String, throws: true }
            status: { parameters: ["of key: String"], returns: "Set<String>", mockDefault: "[\\"unknown\\"]" }
            observe: { parameters: ["_ value: any Sendable", "count: Int"], mutating: true }
            tick:
      worlds:
        PayWorld: { module: App, domains: [Pay], links: { Pay: Recording } }
      """)
    let (status, output) = try typeCheck(manifest)
    #expect(status == 0, "\(output)")
  }
}

/// Generates `manifest`, adds the hand-written types it names, and type-checks
/// everything with `swiftc -typecheck -warnings-as-errors` as one module.
func typeCheck(_ manifest: Manifest) throws -> (Int32, String) {
  let root = try TemporaryRoot()
  let modules = Set(manifest.domains.flatMap { [$0.name, $0.testingModule] } + manifest.worlds.map(\.module))
  var paths: [String] = []
  for (path, contents) in Generator.files(for: manifest) {
    let kept = contents.split(separator: "\n", omittingEmptySubsequences: false).filter { line in
      !(line.hasPrefix("import ") && modules.contains(String(line.dropFirst(7))))
    }
    let flat = path.replacingOccurrences(of: "/", with: "_")
    try root.write(flat, kept.joined(separator: "\n"))
    paths.append(root.url.appendingPathComponent(flat).path)
  }
  try root.write("HandWritten.swift", RandomManifest.handWritten(for: manifest))
  paths.append(root.url.appendingPathComponent("HandWritten.swift").path)
  return try swiftc(
    [
      "-typecheck", "-swift-version", "6", "-parse-as-library", "-module-name", "Probe", "-warnings-as-errors",
      "-enable-experimental-feature", "SuppressedAssociatedTypes",
    ] + paths)
}

/// Runs the toolchain's `swiftc`; returns its status and combined output.
func swiftc(_ arguments: [String]) throws -> (Int32, String) { try toolchain("swiftc", arguments) }
