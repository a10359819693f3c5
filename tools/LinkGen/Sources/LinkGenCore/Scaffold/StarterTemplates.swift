import Foundation

/// The text of `linkgen init`'s starter repository: one state domain
/// (`Counter`), one service (`Greeter`, with a stateful and a stateless link,
/// and a generated `GreeterTesting` library), two worlds (`AppWorld`, in the
/// `App` package, and `AppTestWorld`, in its tests), an umbrella `Package.swift`,
/// and a Makefile fragment. The domain packages come from the same templates
/// as `linkgen new-domain`, and the worlds are written as `new-domain --world`
/// writes them, so a starter grows, and shrinks (`remove-domain`), the way this
/// repository does.
struct StarterTemplates {
  /// The umbrella package's name.
  let name: String
  /// The Service Linker repository the starter depends on.
  let dependency: StarterDependency
  /// The starter's folder: a path dependency is written relative to it.
  let root: URL

  /// The dependency as the umbrella `Package.swift` declares it.
  var rootDeclaration: String { dependency.declaration(root: root, manifestFolder: root) }
  /// The dependency as `Packages/App/Package.swift` declares it.
  var appDeclaration: String {
    dependency.declaration(root: root, manifestFolder: root.appendingPathComponent("Packages/App"))
  }

  static let state = DomainTemplates(name: "Counter", kind: .state)
  static let service = DomainTemplates(name: "Greeter", kind: .service)

  var manifest: String {
    """
    # The single source of truth for capability boilerplate: `make generate` writes
    # Generated/ from it, `make check` fails when Generated/ is stale.
    # Add a domain with `linkgen new-domain NAME [--kind state|service]`.

    domains:
    \(Self.state.manifestEntry.map { "  \($0)" }.joined(separator: "\n"))
    \(Self.service.manifestEntry.map { "  \($0)" }.joined(separator: "\n"))

    worlds:
      AppWorld:
        module: App
        doc: "The app's world: the one place that names the concrete implementations."
        domains: [Counter, Greeter]
        links: { Greeter: Live }
        snapshot: AppSnapshot
      AppTestWorld:
        module: AppTests
        doc: "The tests' world: the app's slices, each service's stateless fake."
        domains: [Counter, Greeter]
        links: { Greeter: Fake }

    # Behaviour pinned by scenarios: each fixture is recorded in
    # \(FeatureCheck.recordingsFolder)/<feature>/<fixture>.json (`make record` writes them);
    # `linkgen check` holds this list to the files.
    features:
      counting:
        scenario: Packages/App/Tests/AppFeaturesTests/CountingTests.swift
        fixtures:
          - \(StarterFeatureTemplates.fixture)

    """
  }

  var rootPackage: String {
    #"""
    // swift-tools-version: 6.2
    // The umbrella package: every domain package and the app, built once.
    // `swift build --package-path Packages/<Name>` builds one package on its own.
    import PackageDescription

    /// A domain package under Packages/: its name, the domains it imports, and whether
    /// it has a `<Name>Testing` library (a service's generated mock and witness).
    struct DomainPackage {
      let name: String
      let uses: [String]
      var testing = false
    }

    let domainPackages: [DomainPackage] = [
      DomainPackage(name: "Counter", uses: []),
      DomainPackage(name: "Greeter", uses: [], testing: true),
      // linkgen:domains-end (`linkgen new-domain` lists new domains above this line)
    ]

    /// The Service Linker repository: the framework's libraries (features, store,
    /// test store, scenarios, canonical JSON, replay server) and linkgen, which
    /// `make` builds from it.
    let serviceLinker: Package.Dependency = \#(rootDeclaration)

    /// A product of the Service Linker repository.
    func framework(_ name: String) -> Target.Dependency { .product(name: name, package: "\#(dependency.identity)") }

    let package = Package(
      name: "\#(name)",
      platforms: [.macOS(.v15)],
      dependencies: [serviceLinker],
      targets: domainPackages.flatMap { domain -> [Target] in
        let testing: [Target.Dependency] = domain.testing ? [.target(name: "\(domain.name)Testing")] : []
        return [
          .target(
            name: domain.name, dependencies: domain.uses.map { .target(name: $0) },
            path: "Packages/\(domain.name)/Sources/\(domain.name)"),
          .testTarget(
            name: "\(domain.name)Tests", dependencies: [.target(name: domain.name)] + testing,
            path: "Packages/\(domain.name)/Tests/\(domain.name)Tests"),
        ]
          + (domain.testing
            ? [
              .target(
                name: "\(domain.name)Testing", dependencies: [.target(name: domain.name)],
                path: "Packages/\(domain.name)/Sources/\(domain.name)Testing")
            ] : [])
      } + [
        // The composition root: the only module that names AppWorld.
        .target(
          name: "App", dependencies: domainPackages.map { .target(name: $0.name) }, path: "Packages/App/Sources/App"),
        // Its tests, and AppTestWorld.
        .testTarget(
          name: "AppTests", dependencies: ["App"] + domainPackages.map { .target(name: $0.name) },
          path: "Packages/App/Tests/AppTests"),
        // The app's features on the framework, their replay server and their tests.
        .target(
          name: "AppFeatures",
          dependencies: ["Counter", framework("CanonicalJSON"), framework("FeatureKit"), framework("DurableStore")],
          path: "Packages/App/Sources/AppFeatures"),
        .executableTarget(
          name: "app-replay", dependencies: ["AppFeatures", framework("FeatureKit")],
          path: "Packages/App/Sources/app-replay"),
        .testTarget(
          name: "AppFeaturesTests",
          dependencies: ["AppFeatures", "Counter"]
            + ["CanonicalJSON", "DurableStore", "FeatureKit", "FeatureTesting", "ScenarioTesting", "VirtualTime"]
            .map(framework),
          path: "Packages/App/Tests/AppFeaturesTests"),
      ],
      swiftLanguageModes: [.v6]
    )

    """#
  }

  var appPackage: String {
    #"""
    // swift-tools-version: 6.2
    // The composition root: names AppWorld and links an implementation per service.
    // Builds alone: `swift build --package-path Packages/App`.
    import PackageDescription

    /// The domains AppWorld composes (`linkgen new-domain NAME --world AppWorld` adds to it).
    let domains = [
      "Counter",
      "Greeter",
      // linkgen:AppWorld-domains-end
    ]

    /// The domains AppTestWorld composes, in the tests (`--world AppTestWorld` adds to it).
    let testDomains = [
      "Counter",
      "Greeter",
      // linkgen:AppTestWorld-domains-end
    ]

    /// A product of the Service Linker repository.
    func framework(_ name: String) -> Target.Dependency { .product(name: name, package: "\#(dependency.identity)") }

    let package = Package(
      name: "App",
      platforms: [.macOS(.v15)],
      products: [.library(name: "App", targets: ["App"]), .executable(name: "app-replay", targets: ["app-replay"])],
      dependencies: Set(domains + testDomains).sorted().map { .package(path: "../\($0)") }
        + [\#(appDeclaration)],
      targets: [
        .target(name: "App", dependencies: domains.map { .product(name: $0, package: $0) }),
        .testTarget(name: "AppTests", dependencies: ["App"] + testDomains.map { .product(name: $0, package: $0) }),
        .target(
          name: "AppFeatures",
          dependencies: [
            .product(name: "Counter", package: "Counter"), framework("CanonicalJSON"), framework("FeatureKit"),
            framework("DurableStore"),
          ]),
        .executableTarget(name: "app-replay", dependencies: ["AppFeatures", framework("FeatureKit")]),
        .testTarget(
          name: "AppFeaturesTests",
          dependencies: ["AppFeatures", .product(name: "Counter", package: "Counter")]
            + ["CanonicalJSON", "DurableStore", "FeatureKit", "FeatureTesting", "ScenarioTesting", "VirtualTime"]
            .map(framework)),
      ],
      swiftLanguageModes: [.v6]
    )

    """#
  }

  var appWorld: String {
    """
    import Counter
    import Greeter

    /// The app's world: every slice and every stored implementation. Its
    /// capabilities are generated (`Generated/App/AppWorld+Links.swift`), and so is
    /// its snapshot (`AppSnapshot`).
    public struct AppWorld {
      /// The Counter slice.
      public var counter = CounterState()
      /// The Greeter service's stateful implementation, kept in the world.
      public var liveGreeter = LiveGreeter()
      // linkgen:AppWorld-storage-end (`linkgen new-domain NAME --world AppWorld` declares new slices above)

      /// A world with every slice and stored service at its start.
      public init() {}
    }

    """
  }

  var testWorld: String {
    """
    import Counter

    /// The tests' world: AppWorld's slices, and each service's stateless fake,
    /// which needs no storage (`linkgen new-domain NAME --kind service --world
    /// AppWorld,AppTestWorld:Fake` links one). Its capabilities are generated
    /// (`Generated/AppTests/AppTestWorld+Links.swift`).
    struct AppTestWorld {
      /// The Counter slice.
      public var counter = CounterState()
      // linkgen:AppTestWorld-storage-end (`linkgen new-domain NAME --world AppTestWorld` declares new slices above)
    }

    """
  }

  var appTest: String {
    """
    import App
    import Counter
    import Testing

    @Test func theWorldRunsItsCommandsAndRestoresItsSlices() {
      var world = AppWorld()
      world.counter = CounterState(counts: ["ada": 2])
      let saved = world.snapshot
      world.addCounter(3, for: "ada")
      #expect(world.counterCount(for: "ada") == 5)
      world.restore(saved)
      #expect(world.counterCount(for: "ada") == 2)
    }

    @Test func theTestWorldRunsTheSameCommands() {
      var world = AppTestWorld()
      world.addCounter(1, for: "ada")
      #expect(world.counterCount(for: "ada") == 1)
    }

    """
  }

  var makefileFragment: String {
    """
    # linkgen.mk: the Service Linker targets; `include linkgen.mk` from your Makefile.
    SWIFT ?= swift
    # linkgen is built from the Service Linker dependency in Package.swift, at the
    # version it resolves to; LINKGEN=/path/to/linkgen (or LINKGEN=linkgen, from PATH)
    # runs another instead.
    ifeq ($(origin LINKGEN),undefined)
    LINKGEN := .build/debug/linkgen
    LINKGEN_TOOL := linkgen-tool
    endif
    # The framework's folder in that dependency: its replay lane runs `make replay`.
    SERVICE_LINKER ?= \(dependency.frameworkFolder(root: root))

    .PHONY: generate check build test domain remove-domain record replay map linkgen-tool

    linkgen-tool: ## Build linkgen from the Service Linker dependency (every target that runs linkgen does this first).
    \t@mkdir -p .build
    \t@$(SWIFT) build --product linkgen > .build/linkgen-build.log 2>&1 || { cat .build/linkgen-build.log; exit 1; }

    generate: $(LINKGEN_TOOL) ## Write Generated/ from codegen.yaml.
    \t$(LINKGEN) generate

    check: $(LINKGEN_TOOL) ## Fail when Generated/ is stale or a world is named outside its composition root.
    \t$(LINKGEN) check

    build: ## Build every package and its tests, or one package alone on its own manifest: make build PKG=Loans.
    \t$(SWIFT) build $(if $(PKG),--package-path Packages/$(PKG),--build-tests)

    test: check ## Every test.
    \t$(SWIFT) test

    domain: $(LINKGEN_TOOL) ## Add a domain: make domain NAME=Loyalty [KIND=state|service] [WORLD=AppWorld,AppTestWorld:Fake] [USES=Counter].
    \t$(LINKGEN) new-domain $(NAME) --kind $(or $(KIND),state) $(if $(WORLD),--world $(WORLD)) $(if $(USES),--uses "$(USES)")
    \t@if [ -f docs/access-map.md ]; then $(MAKE) --no-print-directory map; fi

    remove-domain: $(LINKGEN_TOOL) ## Undo make domain: make remove-domain NAME=Loyalty (refused while anything uses it).
    \t$(LINKGEN) remove-domain $(NAME)
    \t@if [ -f docs/access-map.md ]; then $(MAKE) --no-print-directory map; fi

    record: ## Run every scenario and (re)write its recording under Tests/Recordings/ (review the diff).
    \tRECORD_SCENARIOS=1 $(SWIFT) test --filter AppFeaturesTests

    replay: ## Send every recorded step through app-replay and compare the bytes.
    \t$(SWIFT) build --product app-replay
    \tpython3 $(SERVICE_LINKER)/Tools/replay_lane.py --server .build/debug/app-replay --recordings Tests/Recordings

    map: $(LINKGEN_TOOL) ## Build, then write docs/access-map.md: who reads and writes each slice.
    \t$(SWIFT) build --build-tests
    \t$(LINKGEN) map

    """
  }

  var makefile: String {
    """
    # The single entry point: make generate, check, build [PKG=…], test, domain NAME=…, remove-domain NAME=…,
    # record, replay, map.
    include linkgen.mk

    """
  }

  var gitignore: String { ".build/\n" }
}
