import Foundation
import LinkGenCore
import Testing

/// A repository with a world whose package and struct carry the markers, and a
/// twin world taking its snapshot (the scenario world's place in the kiosk).
func rootWithWorlds() throws -> TemporaryRoot {
  let root = try TemporaryRoot()
  try root.write(
    "codegen.yaml",
    """
    # The manifest, with comments that must survive.
    domains:
      Menu:
        state: MenuState   # the menu
    worlds:
      ShopWorld: { module: ShopApp, domains: [Menu], snapshot: ShopSnapshot }
      ScenarioWorld:
        module: ShopFeatures
        domains:
          - Menu

    """)
  try root.write(
    "Package.swift",
    rootPackage + """
      let shopDomains = [
        "Menu",
        // linkgen:ShopWorld-domains-end
      ]
      let scenarioDomains = [
        "Menu",
        // linkgen:ScenarioWorld-domains-end
      ]

      """)
  for (world, module) in [("ShopWorld", "ShopApp"), ("ScenarioWorld", "ShopFeatures")] {
    try root.write(
      "Packages/ShopApp/Sources/\(module)/\(world).swift",
      "import Menu\n\npublic struct \(world) {\n  public var menu: MenuState\n  // linkgen:\(world)-storage-end\n}\n")
  }
  _ = root.run(["generate"])
  return root
}

private func texts(_ root: TemporaryRoot) -> [String: Data] { root.contents().mapValues(\.0) }

@Test(arguments: ["state", "service"])
func removeDomainUndoesNewDomainByteForByte(kind: String) throws {
  let root = try rootWithWorlds()
  let before = texts(root)
  let (added, _, addErrors) = root.run(["new-domain", "Loyalty", "--kind", kind, "--world", "ShopWorld"])
  #expect(added == .success, "\(addErrors)")
  #expect(texts(root) != before)

  let (status, output, errors) = root.run(["remove-domain", "Loyalty"])
  #expect(status == .success, "\(errors)")
  #expect(output.hasPrefix("linkgen: removed domain 'Loyalty' (Packages/Loyalty); "))
  let after = texts(root)
  for path in Set(before.keys).union(after.keys).sorted() where before[path] != after[path] {
    Issue.record("\(path) differs: \(after[path].map { String(decoding: $0, as: UTF8.self) } ?? "missing")")
  }
  #expect(!root.exists("Packages/Loyalty") && !root.exists("Generated/Loyalty"))
  #expect(root.run(["check"]).0 != .usage)
}

@Test func removeDomainRefusesWhileAnotherPackageUsesItAndChangesNothing() throws {
  let root = try rootWithWorlds()
  #expect(root.run(["new-domain", "Loyalty", "--world", "ShopWorld"]).0 == .success)
  try root.write(
    "Packages/Menu/Sources/Menu/Points.swift", "import Foundation\nimport Loyalty\n\nlet s = LoyaltyState()\n")
  try root.write(
    "Packages/Menu/Package.swift", "let package = Package(dependencies: [.package(path: \"../Loyalty\")])\n")
  let before = texts(root)
  let (status, _, errors) = root.run(["remove-domain", "Loyalty"])
  #expect(status == .failure)
  #expect(
    errors == """
      error: 'Loyalty' is still used; remove these uses first (nothing was changed):
        Packages/Menu/Package.swift:1:53: names '../Loyalty'
        Packages/Menu/Sources/Menu/Points.swift:2:8: imports 'Loyalty'
        Packages/Menu/Sources/Menu/Points.swift:4:9: uses 'LoyaltyState'
      """)
  #expect(texts(root) == before)
}

@Test func removeDomainNamesAnUnknownDomainWithTheNearestOne() throws {
  let root = try rootWithWorlds()
  let before = texts(root)
  let (status, _, errors) = root.run(["remove-domain", "Menus"])
  #expect(status == .failure)
  #expect(errors == "error: no domain 'Menus' in the manifest; did you mean 'Menu'?")
  #expect(texts(root) == before)
  #expect(root.run(["remove-domain"]).0 == .usage)
}

@Test func removingADomainFromFlowAndBlockCollectionsKeepsTheRest() throws {
  let text = """
    domains:
      Menu: { state: MenuState }
      Loyalty:
        state: LoyaltyState
        doc: "Points."
      Payment: { service: PaymentGateway, links: { Live: { impl: LivePayment } } }
    worlds:
      A: { module: AppA, domains: [Menu, Loyalty, Payment], links: { Loyalty: Live, Payment: Live } }
      B:
        module: AppB
        domains:
          - Loyalty
          - Menu
        links:
          Loyalty: Live
      C: { module: AppC, domains: [Loyalty] }

    """
  let removed = try ManifestEditor.removingDomain(named: "Loyalty", from: text)
  #expect(
    removed == """
      domains:
        Menu: { state: MenuState }
        Payment: { service: PaymentGateway, links: { Live: { impl: LivePayment } } }
      worlds:
        A: { module: AppA, domains: [Menu, Payment], links: { Payment: Live } }
        B:
          module: AppB
          domains:
            - Menu
        C: { module: AppC, domains: [] }

      """)
}

@Test func aDomainThatUsesAnotherIsWrittenIntoBothManifestsAndKeepsItFromBeingRemoved() throws {
  let root = try rootWithWorlds()
  try root.write("Packages/Menu/Package.swift", "// the Menu package\n")
  let before = texts(root)
  let (status, _, errors) = root.run(["new-domain", "Loyalty", "--uses", "Menu"])
  #expect(status == .success, "\(errors)")
  let package = root.read("Packages/Loyalty/Package.swift")!
  #expect(package.contains("  dependencies: [.package(path: \"../Menu\")],\n"))
  #expect(package.contains(".target(name: \"Loyalty\", dependencies: [.product(name: \"Menu\", package: \"Menu\")]),"))
  #expect(root.read("Package.swift")!.contains("  DomainPackage(name: \"Loyalty\", uses: [\"Menu\"]),\n"))

  let (refused, _, why) = root.run(["remove-domain", "Menu"])
  #expect(refused == .failure)
  #expect(why.contains("Packages/Loyalty/Package.swift:"), "\(why)")
  #expect(why.contains("names '../Menu'"), "\(why)")
  let (unknown, _, unknownWhy) = root.run(["new-domain", "Points", "--uses", "Menus"])
  #expect(
    unknown == .failure && unknownWhy == "error: '--uses': no domain 'Menus' in the manifest; did you mean 'Menu'?")

  #expect(root.run(["remove-domain", "Loyalty"]).0 == .success)
  #expect(texts(root) == before, "removing it gives the tree back")
}

@Test func removeDomainRefusesWhatWouldBreakAWorldOrAUseWithoutAnImport() throws {
  let root = try rootWithWorlds()
  #expect(root.run(["new-domain", "Loyalty", "--world", "ShopWorld", "--uses", "Menu,Menu"]).0 != .success)
  try root.write("Packages/Menu/Package.swift", "// the Menu package\n")
  #expect(root.run(["new-domain", "Loyalty", "--world", "ShopWorld", "--uses", "Menu, Menu"]).0 == .success)
  #expect(root.read("Package.swift")!.contains("DomainPackage(name: \"Loyalty\", uses: [\"Menu\"]),"), "listed once")

  // A read of the domain, called on the world with no import of it.
  try root.write(
    "Packages/ShopApp/Tests/ShopAppTests/Points.swift",
    "func points(_ world: ShopWorld) -> Int {\n  world.loyaltyCount(for: \"ada\")\n}\n")
  let (used, _, usedWhy) = root.run(["remove-domain", "Loyalty"])
  #expect(used == .failure)
  #expect(usedWhy.contains("Packages/ShopApp/Tests/ShopAppTests/Points.swift:2:9: uses 'loyaltyCount'"), "\(usedWhy)")
  try FileManager.default.removeItem(at: root.url.appendingPathComponent("Packages/ShopApp/Tests"))

  // A test world whose module is in the package's Tests/.
  let manifest = root.read("codegen.yaml")!
  try root.write("codegen.yaml", manifest + "  LoyaltyTestWorld: { module: LoyaltyTests, domains: [Menu, Loyalty] }\n")
  let (inside, _, insideWhy) = root.run(["remove-domain", "Loyalty"])
  #expect(inside == .failure)
  #expect(
    insideWhy.contains("world 'LoyaltyTestWorld' lives in Packages/Loyalty (module LoyaltyTests)"), "\(insideWhy)")

  // A world that would compose nothing.
  try root.write("codegen.yaml", manifest + "  LoyalOnly: { module: ShopApp, domains: [Loyalty] }\n")
  let (alone, _, aloneWhy) = root.run(["remove-domain", "Loyalty"])
  #expect(alone == .failure)
  #expect(aloneWhy.contains("world 'LoyalOnly' composes 'Loyalty' alone"), "\(aloneWhy)")
  try root.write("codegen.yaml", manifest)
  #expect(root.run(["remove-domain", "Loyalty"]).0 == .success)
}

/// Work in the package that new-domain did not write (a file added, a file
/// changed) is not deleted silently: remove-domain lists it and changes
/// nothing, unless --force. Build products are not work.
@Test func removeDomainKeepsWorkInThePackageUnlessForced() throws {
  let root = try rootWithWorlds()
  try root.write("Packages/Menu/Package.swift", "targets: [.target(name: \"Menu\")]\n")
  let (added, _, addErrors) = root.run([
    "new-domain", "Loyalty", "--kind", "service", "--uses", "Menu", "--world", "ShopWorld",
  ])
  #expect(added == .success, "\(addErrors)")
  try root.write("Packages/Loyalty/.build/debug/Loyalty.o", "built")
  try root.write("Packages/Loyalty/Sources/Loyalty/Points.swift", "// the domain's logic\n")
  let service = "Packages/Loyalty/Sources/Loyalty/LoyaltyService.swift"
  try root.write(service, root.read(service)! + "// changed\n")
  let before = texts(root)
  let (status, _, errors) = root.run(["remove-domain", "Loyalty"])
  #expect(status == .failure)
  #expect(
    errors == """
      error: Packages/Loyalty holds work new-domain did not write, which removing it would delete (nothing was changed):
        Packages/Loyalty/Sources/Loyalty/LoyaltyService.swift: changed
        Packages/Loyalty/Sources/Loyalty/Points.swift: added
      move it out first, or run 'linkgen remove-domain Loyalty --force' to delete it too
      """)
  #expect(texts(root) == before)
  let (forced, _, forcedErrors) = root.run(["remove-domain", "Loyalty", "--force"])
  #expect(forced == .success, "\(forcedErrors)")
  #expect(!root.exists("Packages/Loyalty"))
}
