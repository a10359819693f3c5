import Foundation
import LinkGenCore
import Testing

let rootPackage = """
  struct DomainPackage {
    let name: String
    let uses: [String]
    var testing = false
  }

  let domainPackages: [DomainPackage] = [
    DomainPackage(name: "Menu", uses: []),
    // linkgen:domains-end (new domains go above this line)
  ]

  """

let commentedManifest = """
  # The manifest, with comments that must survive.
  domains:
    Menu:
      state: MenuState   # the menu
      doc: "Items."

  # Worlds below.
  worlds:
    ShopWorld: { module: ShopApp, domains: [Menu] }

  """

@Test func newDomainAddsTheManifestEntryScaffoldsThePackageAndRegenerates() throws {
  let root = try TemporaryRoot()
  try root.write("codegen.yaml", commentedManifest)
  try root.write("Package.swift", rootPackage)
  let (status, output, errors) = root.run(["new-domain", "Loyalty"])
  #expect(errors == "")
  #expect(status == .success)
  #expect(output == "linkgen: added state domain 'Loyalty' (Packages/Loyalty); 3 written, 0 deleted")
  #expect(
    root.read("codegen.yaml") == """
      # The manifest, with comments that must survive.
      domains:
        Menu:
          state: MenuState   # the menu
          doc: "Items."
        Loyalty:
          state: LoyaltyState
          doc: "The Loyalty domain's state."

      # Worlds below.
      worlds:
        ShopWorld: { module: ShopApp, domains: [Menu] }

      """)
  #expect(
    root.read("Package.swift")!.contains("  DomainPackage(name: \"Loyalty\", uses: []),\n  // linkgen:domains-end"))
  for file in [
    "Packages/Loyalty/Package.swift", "Packages/Loyalty/Sources/Loyalty/LoyaltyState.swift",
    "Packages/Loyalty/Sources/Loyalty/Loyalty+Reads.swift", "Packages/Loyalty/Sources/Loyalty/Loyalty+Commands.swift",
    "Packages/Loyalty/Tests/LoyaltyTests/LoyaltyTests.swift", "Generated/Loyalty/HasLoyalty.swift",
    "Packages/Loyalty/Sources/Loyalty/Generated/HasLoyalty.swift",
  ] {
    #expect(root.exists(file), "\(file)")
  }
  let link = try FileManager.default.destinationOfSymbolicLink(
    atPath: root.url.appendingPathComponent("Packages/Loyalty/Sources/Loyalty/Generated").path)
  #expect(link == "../../../../Generated/Loyalty")
  try root.linkGeneratedFolders()  // the world's module, which this partial repository lacks
  try root.write("Packages/Menu/Package.swift", "targets: [.target(name: \"Menu\")]\n")  // and the listed Menu's
  #expect(root.run(["check"]).0 == .success)
}

@Test func aServiceDomainGetsTwoLinkedImplementations() throws {
  let root = try TemporaryRoot()
  try root.write("codegen.yaml", commentedManifest)
  let (status, _, _) = root.run(["new-domain", "Rewards", "--kind", "service"])
  #expect(status == .success)
  let manifest = try ManifestDecoder.decode(root.read("codegen.yaml")!)
  guard case .service(let service)? = manifest.domain(named: "Rewards")?.kind else {
    Issue.record("Rewards is not a service")
    return
  }
  // Live and Fake, and the generated mock's Recording and Witness (mock: true).
  #expect(service.links.map(\.name) == ["Fake", "Live", "Recording", "Witness"])
  #expect(root.exists("Generated/Rewards/LinkLiveRewards.swift"))
  #expect(root.exists("Generated/RewardsTesting/RewardsServiceMock.swift"))
  #expect(
    try FileManager.default.destinationOfSymbolicLink(
      atPath: root.url.appendingPathComponent("Packages/Rewards/Sources/RewardsTesting/Generated").path)
      == "../../../../Generated/RewardsTesting")
  #expect(root.read("Packages/Rewards/Package.swift")!.contains(".library(name: \"RewardsTesting\""))
  #expect(root.exists("Packages/Rewards/Sources/Rewards/LiveRewards.swift"))
  #expect(root.exists("Packages/Rewards/Sources/Rewards/FakeRewards.swift"))
}

@Test(arguments: [
  ("Menu", "2:3: error: domain 'Menu' already exists"),
  ("loyalty", "error: a domain name starts with a capital letter, like 'Loyalty'"),
  ("Not-A-Name", "error: 'Not-A-Name' is not a Swift identifier"),
])
func aRefusedNewDomainChangesNothing(name: String, message: String) throws {
  let root = try TemporaryRoot()
  try root.write(
    "codegen.yaml",
    commentedManifest.replacingOccurrences(of: "# The manifest, with comments that must survive.\n", with: ""))
  try root.write("Package.swift", rootPackage)
  _ = root.run(["generate"])
  let before = root.contents()
  let (status, _, errors) = root.run(["new-domain", name])
  #expect(status == .failure)
  #expect(errors == (message.hasPrefix("error") ? message : "\(root.manifestPath):\(message)"))
  #expect(TemporaryRoot.same(root.contents(), before))
}

@Test func aRootPackageWithoutTheMarkerRefusesBeforeWritingAnything() throws {
  let root = try TemporaryRoot()
  try root.write("codegen.yaml", commentedManifest)
  try root.write("Package.swift", "let package = 1\n")
  let before = root.contents()
  let (status, _, errors) = root.run(["new-domain", "Loyalty"])
  #expect(status == .failure)
  #expect(errors == "error: Package.swift has no '// linkgen:domains-end' line to add the package before")
  #expect(TemporaryRoot.same(root.contents(), before))
  #expect(!root.exists("Packages/Loyalty"))
}

/// Runs the toolchain's `swift` with `arguments`; returns its status and combined output.
func swift(_ arguments: [String]) throws -> (Int32, String) { try toolchain("swift", arguments) }

/// Runs a toolchain tool (`swift`, `swiftc`) from the PATH; returns its status and combined output.
func toolchain(_ tool: String, _ arguments: [String]) throws -> (Int32, String) {
  try Toolchain.run(tool, arguments)
}

@Test func newDomainKeepsACRLFManifestsLineEndingsAndAddsToDomains() throws {
  let root = try TemporaryRoot()
  let crlf = commentedManifest.replacingOccurrences(of: "\n", with: "\r\n")
  try root.write("codegen.yaml", crlf)
  let (status, _, errors) = root.run(["new-domain", "Loyalty"])
  #expect(status == .success, "\(errors)")
  let manifest = try ManifestDecoder.decode(root.read("codegen.yaml")!)
  #expect(Set(manifest.domains.map(\.name)) == ["Menu", "Loyalty"])
  #expect(manifest.worlds.map(\.domains) == [["Menu"]])
  #expect(!root.read("codegen.yaml")!.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
}

@Test(arguments: ["Generated/Loyalty2/Old.swift", "Generated/Loyalty2Testing/Old.swift"])
func newDomainRefusesATakenGeneratedFolderAndKeepsIt(existing: String) throws {
  let root = try TemporaryRoot()
  try root.write("codegen.yaml", commentedManifest)
  try root.write(existing, "// someone's file\n")
  let before = root.contents()
  let (status, _, errors) = root.run(["new-domain", "Loyalty2"])
  #expect(status == .failure)
  let folder = existing.split(separator: "/").prefix(2).joined(separator: "/")
  #expect(errors == "error: '\(folder)' already exists; remove it or choose another name")
  #expect(TemporaryRoot.same(root.contents(), before))
}

@Test(arguments: [
  ("Class", "property 'class' of domain 'Class' cannot name a Swift member"),
  ("Foundation", "domain 'Foundation' would be a module named like the toolchain's 'Foundation'"),
  ("MenuTests", "domain 'MenuTests' ends like a generated target"),
])
func newDomainRefusesNamesThatCannotCompile(name: String, message: String) throws {
  let root = try TemporaryRoot()
  try root.write("codegen.yaml", commentedManifest)
  let before = root.contents()
  let (status, _, errors) = root.run(["new-domain", name])
  #expect(status == .failure)
  #expect(errors.contains(message), "\(errors)")
  #expect(TemporaryRoot.same(root.contents(), before))
}

@Test func newDomainRefusesANameTheRootPackageAlreadyUses() throws {
  let root = try TemporaryRoot()
  try root.write("codegen.yaml", commentedManifest)
  try root.write("Package.swift", rootPackage + ".executableTarget(name: \"Benchmarks\")\n")
  let (status, _, errors) = root.run(["new-domain", "Benchmarks"])
  #expect(status == .failure)
  #expect(errors == "error: Package.swift already names 'Benchmarks' (a target or product); choose another name")
  let (worldStatus, _, worldErrors) = root.run(["new-domain", "ShopApp"])
  #expect(worldStatus == .failure)
  #expect(worldErrors == "error: 'ShopApp' is the module of world 'ShopWorld'; choose another name")
}

@Test func newDomainIntoAWorldEditsOnlyAtTheMarkersAndKeepsTheManifestsLayout() throws {
  let root = try TemporaryRoot()
  try root.write("codegen.yaml", commentedManifest)
  try root.write("Package.swift", rootPackage)
  try root.write(
    "Packages/ShopApp/Package.swift",
    """
    let domains = [
      "Menu",
      // linkgen:ShopWorld-domains-end
    ]

    """)
  try root.write(
    "Packages/ShopApp/Sources/ShopApp/ShopWorld.swift",
    """
    import Menu

    public struct ShopWorld {
      public var menu: MenuState
      // linkgen:ShopWorld-storage-end
    }

    """)
  let (status, output, errors) = root.run(["new-domain", "Rewards", "--kind", "service", "--world", "ShopWorld"])
  #expect(status == .success, "\(errors)")
  #expect(output.hasPrefix("linkgen: added service domain 'Rewards' (Packages/Rewards) to world 'ShopWorld'; "))
  #expect(
    root.read("codegen.yaml")!.contains(
      "  ShopWorld: { module: ShopApp, domains: [Menu, Rewards], links: { Rewards: Live } }\n"))
  let manifest = try ManifestDecoder.decode(root.read("codegen.yaml")!)
  #expect(manifest.worlds[0].domains == ["Menu", "Rewards"])
  #expect(manifest.worlds[0].links == ["Rewards": "Live"])
  #expect(root.read("codegen.yaml")!.contains("# Worlds below."), "comments survive")
  #expect(
    root.read("Packages/ShopApp/Package.swift")!.contains(
      "  \"Menu\",\n  \"Rewards\",\n  // linkgen:ShopWorld-domains-end"))
  let world = root.read("Packages/ShopApp/Sources/ShopApp/ShopWorld.swift")!
  #expect(world.contains("import Menu\nimport Rewards\n"))
  #expect(world.contains("  public var liveRewards = LiveRewards()\n  // linkgen:ShopWorld-storage-end"))
}

@Test func newDomainIntoAWorldWithoutItsMarkersChangesNothing() throws {
  let root = try TemporaryRoot()
  try root.write("codegen.yaml", commentedManifest)
  try root.write("Package.swift", rootPackage)
  let (status, _, errors) = root.run(["new-domain", "Loyalty", "--world", "ShopWorld"])
  #expect(status == .failure)
  #expect(errors.contains("no Package.swift has a '// linkgen:ShopWorld-domains-end' line"))
  #expect(root.read("codegen.yaml") == commentedManifest)
  #expect(root.read("Package.swift") == rootPackage)
  #expect(!root.exists("Packages/Loyalty"))
  let (unknown, _, unknownErrors) = root.run(["new-domain", "Loyalty", "--world", "ShopWrld"])
  #expect(unknown == .failure)
  #expect(unknownErrors == "error: no world 'ShopWrld' in the manifest; did you mean 'ShopWorld'?")
}

/// The repro of issue 26: a state domain added to a world with a snapshot goes
/// to every world that takes the snapshot (here the scenario world), and each
/// listing in the umbrella gains it, the domains list as well as the worlds'.
@Test func newDomainListsItInEveryWorldsListingOfTheUmbrellaTwinsIncluded() throws {
  let root = try rootWithWorlds()
  let (status, output, errors) = root.run(["new-domain", "Loyalty", "--world", "ShopWorld"])
  #expect(status == .success, "\(errors)")
  // The message names every world it changed, the twin too.
  #expect(
    output.hasPrefix(
      "linkgen: added state domain 'Loyalty' (Packages/Loyalty) to world 'ShopWorld' and 'ScenarioWorld', which "
        + "shares its snapshot; "), "\(output)")
  let umbrella = root.read("Package.swift")!
  #expect(umbrella.contains("  DomainPackage(name: \"Loyalty\", uses: []),\n  // linkgen:domains-end"))
  #expect(umbrella.contains("  \"Loyalty\",\n  // linkgen:ShopWorld-domains-end"))
  #expect(umbrella.contains("  \"Loyalty\",\n  // linkgen:ScenarioWorld-domains-end"), "\(umbrella)")
  #expect(root.read("Packages/ShopApp/Sources/ShopFeatures/ScenarioWorld.swift")!.contains("public var loyalty"))
}

@Test func newDomainAddsToABlockStyleWorldListAndLinksWhateverFollowsThem() throws {
  let root = try TemporaryRoot()
  try root.write(
    "codegen.yaml",
    """
    domains:
      Menu: { state: MenuState }
      Bell: { service: BellService, links: { Live: { impl: LiveBell } } }
    worlds:
      ShopWorld:
        domains:
          - Menu   # the menu
          - Bell
        links:
          Bell: Live
        module: ShopApp
      OtherWorld:
        module: Other
        domains: [Menu]

    """)
  try root.write("Package.swift", rootPackage + "let shop = [\n  // linkgen:ShopWorld-domains-end\n]\n")
  try root.write(
    "Packages/ShopApp/Sources/ShopApp/ShopWorld.swift",
    "public struct ShopWorld {\n  // linkgen:ShopWorld-storage-end\n}\n")
  let (status, _, errors) = root.run(["new-domain", "Rewards", "--kind", "service", "--world", "ShopWorld"])
  #expect(status == .success, "\(errors)")
  #expect(
    root.read("codegen.yaml")!.contains(
      """
          domains:
            - Menu   # the menu
            - Bell
            - Rewards
          links:
            Bell: Live
            Rewards: Live
          module: ShopApp
      """))
  #expect(root.run(["remove-domain", "Rewards"]).0 == .success)
  #expect(!root.read("codegen.yaml")!.contains("Rewards"))
}

@Test func aServiceNeedsAnUmbrellaThatBuildsItsTestingLibrary() throws {
  let root = try TemporaryRoot()
  try root.write("codegen.yaml", commentedManifest)
  let umbrella = "let domainPackages: [DomainPackage] = [\n  // linkgen:domains-end\n]\n"
  try root.write("Package.swift", umbrella)
  let (status, _, errors) = root.run(["new-domain", "Rewards", "--kind", "service"])
  #expect(status == .failure)
  #expect(errors.contains("Package.swift's DomainPackage has no 'testing' field"), "\(errors)")
  #expect(root.read("Package.swift") == umbrella)
  #expect(!root.exists("Packages/Rewards"))
  // With the field, the service is listed with it.
  try root.write("Package.swift", rootPackage)
  #expect(root.run(["new-domain", "Rewards", "--kind", "service"]).0 == .success)
  #expect(root.read("Package.swift")!.contains("  DomainPackage(name: \"Rewards\", uses: [], testing: true),\n"))
}

/// `--world A,B:Fake`: a service goes into two worlds at once, linked `Live`
/// (stored in the first world's struct) and `Fake` (nothing stored: the second
/// world's struct is not touched); each package listing gains it.
@Test func aServiceGoesIntoSeveralWorldsEachWithTheLinkNamedForIt() throws {
  let root = try rootWithWorlds()
  let scenarioWorld = root.read("Packages/ShopApp/Sources/ShopFeatures/ScenarioWorld.swift")!
  let (status, output, errors) = root.run([
    "new-domain", "Rewards", "--kind", "service", "--world", "ShopWorld,ScenarioWorld:Fake",
  ])
  #expect(status == .success, "\(errors)")
  #expect(output.contains("to worlds 'ShopWorld', 'ScenarioWorld:Fake'"), "\(output)")
  let manifest = try ManifestDecoder.decode(root.read("codegen.yaml")!)
  let links = Dictionary(uniqueKeysWithValues: manifest.worlds.map { ($0.name, $0.links) })
  #expect(links == ["ShopWorld": ["Rewards": "Live"], "ScenarioWorld": ["Rewards": "Fake"]])
  #expect(manifest.worlds.allSatisfy { $0.domains == ["Menu", "Rewards"] })
  #expect(root.read("Packages/ShopApp/Sources/ShopApp/ShopWorld.swift")!.contains("public var liveRewards"))
  #expect(root.read("Packages/ShopApp/Sources/ShopFeatures/ScenarioWorld.swift") == scenarioWorld)
  let umbrella = root.read("Package.swift")!
  #expect(umbrella.contains("  \"Rewards\",\n  // linkgen:ScenarioWorld-domains-end"), "\(umbrella)")
  #expect(root.exists("Generated/ShopFeatures/ScenarioWorld+Links.swift"))
  #expect(root.read("Generated/ShopFeatures/ScenarioWorld+Links.swift")!.contains("LinkFakeRewards"))
  // remove-domain gives the tree back.
  #expect(root.run(["remove-domain", "Rewards"]).0 == .success)
  #expect(root.read("Packages/ShopApp/Sources/ShopFeatures/ScenarioWorld.swift") == scenarioWorld)
}

@Test(arguments: [
  (["Rewards", "--kind", "service", "--world", "ShopWorld:Mock"], "a world's link is 'Live' or 'Fake', not 'Mock'"),
  (["Rewards", "--world", "ShopWorld:Fake"], "only a service is linked; a state domain takes no ':Fake'"),
])
func aWorldsLinkIsLiveOrFakeAndOnlyForAService(arguments: [String], message: String) throws {
  let root = try rootWithWorlds()
  let before = root.read("codegen.yaml")
  let (status, _, errors) = root.run(["new-domain"] + arguments)
  #expect(status == .failure)
  #expect(errors.contains(message), "\(errors)")
  #expect(root.read("codegen.yaml") == before)
  #expect(!root.exists("Packages/Rewards"))
}
