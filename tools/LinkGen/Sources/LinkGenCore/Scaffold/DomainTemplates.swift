/// The text of a scaffolded domain: manifest entry, package manifest, sources, test.
struct DomainTemplates {
  let name: String
  let kind: ScaffoldKind
  /// The domains its package depends on (`new-domain --uses`), each by path and product.
  var uses: [String] = []

  var property: String { SwiftIdentifier.lowerCamel(name) }

  /// The domain's lines for `codegen.yaml`, unindented.
  var manifestEntry: [String] {
    switch kind {
    case .state:
      return [
        "\(name):",
        "  state: \(name)State",
        "  doc: \"The \(name) domain's state.\"",
      ]
    case .service:
      return [
        "\(name):",
        "  service: \(name)Service",
        "  doc: \"The \(name) service, linked per world.\"",
        "  links:",
        "    Live: { impl: Live\(name), stores: live\(name) }",
        "    Fake: { impl: Fake\(name) }",
        "  mock: true",
        "  requirements:",
        "    describe: { parameters: [\"_ value: Int\"], returns: String }",
        "    record: { parameters: [\"_ value: Int\"], mutating: true }",
      ]
    }
  }

  /// The generated testing library of a service (`mock: true`): its recording mock and closure witness.
  var testingModule: String { "\(name)Testing" }

  /// Relative path (inside `Packages/<name>/`) → symbolic link target: each
  /// module's `Generated` folder, pointing into the repository's `Generated/`.
  var links: [String: String] {
    var links = ["Sources/\(name)/Generated": "../../../../\(Generator.outputFolder)/\(name)"]
    if kind == .service {
      links["Sources/\(testingModule)/Generated"] = "../../../../\(Generator.outputFolder)/\(testingModule)"
    }
    return links
  }

  /// Relative path (inside `Packages/<name>/`) → contents.
  var files: [String: String] {
    var files = ["Package.swift": packageManifest]
    switch kind {
    case .state:
      files["Sources/\(name)/\(name)State.swift"] = stateSlice
      files["Sources/\(name)/\(name)+Reads.swift"] = stateRead
      files["Sources/\(name)/\(name)+Commands.swift"] = stateCommand
      files["Tests/\(name)Tests/\(name)Tests.swift"] = stateTest
    case .service:
      files["Sources/\(name)/\(name)Service.swift"] = serviceProtocol
      files["Sources/\(name)/Live\(name).swift"] = liveImplementation
      files["Sources/\(name)/Fake\(name).swift"] = fakeImplementation
      files["Sources/\(name)/\(name)+Reads.swift"] = serviceRead
      files["Sources/\(name)/\(name)+Commands.swift"] = serviceCommand
      files["Tests/\(name)Tests/\(name)Tests.swift"] = serviceTest
    }
    return files
  }

  /// `dependencies: [.package(path: "../A")],` on its own line, when it uses any domain.
  private var dependencyLines: String {
    uses.isEmpty ? "" : "\n  dependencies: [\(uses.map { ".package(path: \"../\($0)\")" }.joined(separator: ", "))],"
  }

  /// `, dependencies: [.product(name: "A", package: "A")]` for the main target, when it uses any domain.
  private var targetDependencies: String {
    uses.isEmpty
      ? "" : ", dependencies: [\(uses.map { ".product(name: \"\($0)\", package: \"\($0)\")" }.joined(separator: ", "))]"
  }

  var packageManifest: String {
    switch kind {
    case .state:
      return """
        // swift-tools-version: 6.2
        // The \(name) domain. Builds alone: `make build PKG=\(name)`.
        import PackageDescription

        let package = Package(
          name: "\(name)",
          platforms: [.macOS(.v15)],
          products: [.library(name: "\(name)", targets: ["\(name)"])],\(dependencyLines)
          targets: [
            .target(name: "\(name)"\(targetDependencies)),
            .testTarget(name: "\(name)Tests", dependencies: ["\(name)"]),
          ],
          swiftLanguageModes: [.v6]
        )

        """
    case .service:
      return """
        // swift-tools-version: 6.2
        // The \(name) service. Builds alone: `make build PKG=\(name)`.
        import PackageDescription

        let package = Package(
          name: "\(name)",
          platforms: [.macOS(.v15)],
          products: [
            .library(name: "\(name)", targets: ["\(name)"]),
            // The generated recording mock and closure witness (Generated/\(testingModule)), for tests.
            .library(name: "\(testingModule)", targets: ["\(testingModule)"]),
          ],\(dependencyLines)
          targets: [
            .target(name: "\(name)"\(targetDependencies)),
            .target(name: "\(testingModule)", dependencies: ["\(name)"]),
            .testTarget(name: "\(name)Tests", dependencies: ["\(name)", "\(testingModule)"]),
          ],
          swiftLanguageModes: [.v6]
        )

        """
    }
  }

  // MARK: State slice

  var stateSlice: String {
    """
    /// The \(name) domain's state: plain copyable data, so a snapshot is an assignment.
    public struct \(name)State: Codable, Equatable, Sendable {
      /// A count per key; replace it with the domain's real data.
      public var counts: [String: Int]

      /// Creates the slice.
      public init(counts: [String: Int] = [:]) {
        self.counts = counts
      }
    }

    """
  }

  var stateRead: String {
    """
    extension Has\(name) where Self: ~Copyable {

      /// The count recorded for `key`, zero when there is none. Reads: \(property).
      @inlinable public func \(property)Count(for key: String) -> Int {
        \(property).counts[key, default: 0]
      }
    }

    """
  }

  var stateCommand: String {
    """
    extension HasMutable\(name) where Self: ~Copyable {

      /// Adds `amount` to the count for `key`. Writes: \(property).
      @inlinable public mutating func add\(name)(_ amount: Int, for key: String) {
        \(property).counts[key, default: 0] += amount
      }
    }

    """
  }

  var stateTest: String {
    """
    import \(name)
    import Testing

    /// The smallest world that can run \(name)'s commands.
    struct \(name)TestWorld: HasMutable\(name) {
      var \(property): \(name)State
    }

    @Test func recordingAddsToTheCountOfThatKeyOnly() {
      var world = \(name)TestWorld(\(property): \(name)State(counts: ["ada": 2]))
      world.add\(name)(3, for: "ada")
      #expect(world.\(property)Count(for: "ada") == 5)
      #expect(world.\(property)Count(for: "grace") == 0)
    }

    """
  }

  // MARK: Service

  var serviceProtocol: String {
    """
    /// What the \(name) service does; each world links one implementation.
    public protocol \(name)Service {
      /// A label for `value`.
      func describe(_ value: Int) -> String
      /// Takes note of `value`.
      mutating func record(_ value: Int)
    }

    """
  }

  var liveImplementation: String {
    """
    /// The stateful implementation: keeps the values it was given, in the world's storage.
    public struct Live\(name): \(name)Service, Sendable {
      /// Every value recorded so far.
      public var recorded: [Int]

      /// Creates the service with nothing recorded.
      public init(recorded: [Int] = []) {
        self.recorded = recorded
      }

      /// The value and how many values came before it.
      public func describe(_ value: Int) -> String { "\\(value) after \\(recorded.count) recorded" }

      /// Appends `value`.
      public mutating func record(_ value: Int) { recorded.append(value) }
    }

    """
  }

  var fakeImplementation: String {
    """
    /// The stateless implementation for tests: answers a fixed text, remembers nothing.
    public struct Fake\(name): \(name)Service, Sendable {
      /// Creates the fake.
      public init() {}

      /// `fake <value>`.
      public func describe(_ value: Int) -> String { "fake \\(value)" }

      /// Does nothing: the fake keeps no state.
      public mutating func record(_ value: Int) {}
    }

    """
  }

  var serviceRead: String {
    """
    extension Has\(name) where Self: ~Copyable {

      /// A label for `value` from the linked service. Reads: \(property).
      @inlinable public func \(property)Label(for value: Int) -> String {
        \(property).describe(value)
      }
    }

    """
  }

  var serviceCommand: String {
    """
    extension Has\(name) where Self: ~Copyable {

      /// Records `value` with the linked service. Writes: \(property).
      @inlinable public mutating func note\(name)(_ value: Int) {
        \(property).record(value)
      }
    }

    """
  }

  var serviceTest: String {
    """
    import \(name)
    import \(testingModule)
    import Testing

    /// A world linking the stateful implementation.
    struct Live\(name)World: LinkLive\(name) {
      var live\(name) = Live\(name)()
    }

    /// A world linking the stateless fake.
    struct Fake\(name)World: LinkFake\(name) {}

    @Test func theLiveLinkKeepsItsStateInTheWorld() {
      var world = Live\(name)World()
      world.note\(name)(4)
      world.note\(name)(7)
      #expect(world.live\(name).recorded == [4, 7])
      #expect(world.\(property)Label(for: 9) == "9 after 2 recorded")
    }

    @Test func theFakeLinkAnswersWithoutState() {
      var world = Fake\(name)World()
      world.note\(name)(4)
      #expect(world.\(property)Label(for: 4) == "fake 4")
    }

    /// A world linking the generated recording mock (`\(testingModule)`).
    struct Mocked\(name)World: LinkRecording\(name) {
      var \(property)Mock = \(name)ServiceMock()
    }

    @Test func theRecordingMockSeesEveryCallAndAnswersAsTold() {
      let mock = \(name)ServiceMock()
      mock.describeHandler = { "told \\($0)" }
      var world = Mocked\(name)World(\(property)Mock: mock)
      world.note\(name)(4)
      #expect(world.\(property)Label(for: 9) == "told 9")
      #expect(mock.calls == [.record(4), .describe(9)])
    }

    """
  }
}
