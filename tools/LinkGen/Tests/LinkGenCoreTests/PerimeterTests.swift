import Foundation
import LinkGenCore
import Testing

/// A root whose manifest has one world, `ShopWorld`, in module `ShopApp`.
func perimeterRoot() throws -> TemporaryRoot {
  let root = try TemporaryRoot()
  try root.write("codegen.yaml", Manifests.world)
  _ = root.run(["generate"])
  try root.linkGeneratedFolders()
  try root.write("Packages/ShopApp/Sources/ShopApp/ShopWorld.swift", "public struct ShopWorld: ~Copyable {}\n")
  try root.write(
    "Packages/Menu/Sources/Menu/MenuState.swift", "/// Knows nothing of worlds.\npublic struct MenuState {}\n")
  try root.write("Packages/Menu/Package.swift", "// depends on nothing\n")
  return root
}

@Test func theWorldMayBeNamedInsideItsOwnModule() throws {
  let root = try perimeterRoot()
  let check = PerimeterCheck(root: root.url, worlds: try ManifestDecoder.decode(Manifests.world).worlds)
  #expect(check.violations() == [])
}

@Test func aPlantedViolationIsCaughtWithFileLineAndColumn() throws {
  let root = try perimeterRoot()
  try root.write(
    "Packages/Menu/Sources/Menu/Leak.swift",
    "import Foundation\n\nfunc peek(_ world: inout ShopWorld) {}\nlet ShopWorldly = 1\n")
  try root.write("Packages/Menu/Package.swift", "let deps = [\n  .package(path: \"../ShopApp\"),\n]\n")
  let (status, _, errors) = root.run(["check"])
  #expect(status == .failure)
  #expect(
    errors == """
      Packages/Menu/Package.swift:2:18: error: a domain package depends on the composition root 'ShopApp'
      Packages/Menu/Sources/Menu/Leak.swift:3:26: error: 'ShopWorld' is named outside its composition root 'ShopApp'; depend on capabilities instead
      """)
}

@Test func aGeneratedFolderLinkedIntoAPackageIsScannedOnce() throws {
  let root = try perimeterRoot()
  try FileManager.default.removeItem(at: root.url.appendingPathComponent("Packages/Menu/Sources/Menu/Generated"))
  try FileManager.default.createSymbolicLink(
    atPath: root.url.appendingPathComponent("Packages/Menu/Sources/Menu/Generated").path,
    withDestinationPath: "../../../../Generated/ShopApp")
  let check = PerimeterCheck(root: root.url, worlds: try ManifestDecoder.decode(Manifests.world).worlds)
  #expect(check.violations() == [])
}

@Test func dependingOnADomainThatHostsItsOwnWorldIsNotAPerimeterLeak() throws {
  // Journal is a domain whose module also hosts a world (its I/O environment):
  // a domain package may depend on it; only a world-hosting non-domain module
  // is a composition root.
  let root = try TemporaryRoot()
  try root.write("Packages/Payment/Package.swift", "dependencies: [.package(path: \"../Journal\")]\n")
  try root.write("Packages/Tabs/Package.swift", "dependencies: [.package(path: \"../ShopApp\")]\n")
  let worlds = [
    World(name: "JournalEnvironment", module: "Journal", domains: [], links: [:]),
    World(name: "ShopWorld", module: "ShopApp", domains: [], links: [:]),
  ]
  let violations = PerimeterCheck(root: root.url, worlds: worlds, domainModules: ["Journal", "Payment", "Tabs"])
    .violations()
  #expect(violations.map(\.file) == ["Packages/Tabs/Package.swift"])
  #expect(violations.map(\.message) == ["a domain package depends on the composition root 'ShopApp'"])
}

@Test func theCheckReadsCodeNotTextAndResolvesPackagePaths() throws {
  let root = try perimeterRoot()
  try root.write(
    "Packages/Menu/Sources/Menu/Notes.swift",
    """
    // ShopWorld is the composition root; we never name it here.
    /* nor /* here */ ShopWorld */
    let note = "ShopWorld"
    let raw = #"ShopWorld"#

    """)
  try root.write("Packages/Menu/Sources/Menu/Sneak.swift", "@testable import ShopApp\n")
  try root.write(
    "Packages/Menu/Package.swift", "let deps = [.package(path: \"../../Packages/Menu/../ShopApp\")]\n")
  let check = PerimeterCheck(
    root: root.url, worlds: try ManifestDecoder.decode(Manifests.world).worlds, domainModules: ["Menu"])
  #expect(
    check.violations().map(\.description) == [
      "Packages/Menu/Package.swift:1:28: error: a domain package depends on the composition root 'ShopApp'",
      "Packages/Menu/Sources/Menu/Sneak.swift:1:18: error: a domain imports the composition root 'ShopApp'; depend on capabilities instead",
    ])
}

@Test func aLinkedFileInGeneratedIsReadLikeAnyOther() throws {
  let root = try perimeterRoot()
  try root.write("Elsewhere/Sneaky.swift", "func peek(_ world: ShopWorld) {}\n")
  try FileManager.default.createSymbolicLink(
    atPath: root.url.appendingPathComponent("Generated/Menu/Sneaky.swift").path,
    withDestinationPath: "../../Elsewhere/Sneaky.swift")
  let check = PerimeterCheck(root: root.url, worlds: try ManifestDecoder.decode(Manifests.world).worlds)
  #expect(check.violations().map(\.file) == ["Generated/Menu/Sneaky.swift"])
}

@Test func aWorldInsideAStringInterpolationIsCodeAndRootOrAbsolutePathsAreResolved() throws {
  let root = try perimeterRoot()
  try root.write("Packages/Menu/Sources/Menu/Peek.swift", "let s = \"world: \\(ShopWorld.self)\"\n")
  try root.write(
    "Packages/Menu/Package.swift",
    "let a = [.package(path: \"../..\"), .package(path: \"\(root.url.path)/Packages/ShopApp\")]\n")
  let check = PerimeterCheck(
    root: root.url, worlds: try ManifestDecoder.decode(Manifests.world).worlds, domainModules: ["Menu"])
  #expect(
    check.violations().map(\.message) == [
      "a domain package depends on the repository's root package, which holds every composition root",
      "a domain package depends on the composition root 'ShopApp'",
      "'ShopWorld' is named outside its composition root 'ShopApp'; depend on capabilities instead",
    ])
  #expect(check.violations().last?.column == 19)
}

@Test func aTestWorldMayBeNamedInItsTestModuleAndNowhereElseInThePackage() throws {
  let root = try TemporaryRoot()
  let world = "public struct LoansTestWorld: ~Copyable {}\nfunc use(_ world: inout LoansTestWorld) {}\n"
  try root.write("Packages/Loans/Tests/LoansTests/LoansTestWorld.swift", world)
  try root.write("Packages/Loans/Tests/LoansTests/LoansTests.swift", "@Test func lend() { _ = LoansTestWorld() }\n")
  try root.write("Packages/Loans/Sources/Loans/Loans.swift", "/// Knows nothing of worlds.\npublic struct Loan {}\n")
  let worlds = [World(name: "LoansTestWorld", module: "LoansTests", domains: [], links: [:])]
  #expect(PerimeterCheck(root: root.url, worlds: worlds, domainModules: ["Loans"]).violations() == [])

  try root.write("Packages/Loans/Sources/Loans/Leak.swift", "func peek(_ world: inout LoansTestWorld) {}\n")
  let violations = PerimeterCheck(root: root.url, worlds: worlds, domainModules: ["Loans"]).violations()
  #expect(
    violations.map(\.description) == [
      "Packages/Loans/Sources/Loans/Leak.swift:1:26: error: 'LoansTestWorld' is named outside its composition root "
        + "'LoansTests'; depend on capabilities instead"
    ])
}
