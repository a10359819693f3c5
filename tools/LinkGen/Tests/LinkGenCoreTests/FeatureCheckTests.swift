import Foundation
import LinkGenCore
import Testing

/// A manifest with one world and a `features:` section of two features.
private let featureManifest = """
  domains:
    Menu: { state: MenuState }
  worlds:
    ShopWorld: { module: ShopApp, domains: [Menu] }
  features:
    menu:
      world: ShopWorld
      scenario: Tests/MenuScenarios.swift
      fixtures:
        - pricing.a-latte
        - pricing.an-espresso
    board:
      world: ShopWorld
      scenario: Tests/BoardScenarios.swift
      fixtures: [empty]
  """

@Test func featuresAreReadSortedWithTheirWorldScenarioAndFixtures() throws {
  let manifest = try ManifestDecoder.decode(featureManifest)
  #expect(manifest.features.map(\.name) == ["board", "menu"])
  #expect(manifest.features[1].world == "ShopWorld")
  #expect(manifest.features[1].scenario == "Tests/MenuScenarios.swift")
  #expect(manifest.features[1].fixtures == ["pricing.a-latte", "pricing.an-espresso"])
  #expect(manifest.features[1].locations.fixtures.map(\.line) == [10, 11])
}

@Test func checkPassesWhenEveryFixtureHasItsRecordingAndEveryRecordingItsFixture() throws {
  let root = try TemporaryRoot()
  try root.write("codegen.yaml", featureManifest)
  try root.write("Tests/MenuScenarios.swift", "// scenarios\n")
  try root.write("Tests/BoardScenarios.swift", "// scenarios\n")
  for file in ["menu/pricing.a-latte", "menu/pricing.an-espresso", "board/empty"] {
    try root.write("Tests/Recordings/\(file).json", "{}\n")
  }
  let manifest = try ManifestDecoder.decode(featureManifest)
  #expect(FeatureCheck(root: root.url, manifest: manifest).diagnostics() == [])
}

@Test func checkLocatesAMissingScenarioAMissingRecordingAnUnlistedOneAndAStrayFolder() throws {
  let root = try TemporaryRoot()
  try root.write("codegen.yaml", featureManifest)
  _ = root.run(["generate"])
  try root.linkGeneratedFolders()
  try root.write("Packages/ShopApp/Sources/ShopApp/ShopWorld.swift", "public struct ShopWorld {}\n")
  try root.write("Tests/MenuScenarios.swift", "// scenarios\n")
  try root.write("Tests/Recordings/menu/pricing.a-latte.json", "{}\n")
  try root.write("Tests/Recordings/menu/pricing.a-mocha.json", "{}\n")
  try root.write("Tests/Recordings/board/empty.json", "{}\n")
  try root.write("Tests/Recordings/loyalty/stamps.json", "{}\n")
  let (status, _, errors) = root.run(["check"])
  #expect(status == .failure)
  #expect(
    errors.replacingOccurrences(of: root.manifestPath, with: "codegen.yaml") == """
      codegen.yaml:5:1: error: recordings in Tests/Recordings/loyalty/ belong to no feature; list 'loyalty' under 'features', \
      or delete the folder
      codegen.yaml:9:5: error: recording Tests/Recordings/menu/pricing.a-mocha.json is no fixture of feature 'menu'; \
      add 'pricing.a-mocha' to its fixtures, or delete the file
      codegen.yaml:11:9: error: fixture 'pricing.an-espresso' of feature 'menu' has no recording at \
      Tests/Recordings/menu/pricing.an-espresso.json; run 'make record'
      codegen.yaml:14:15: error: scenario file 'Tests/BoardScenarios.swift' of feature 'board' does not exist
      """)
}

@Test func aWorldsModuleMayLiveInAnotherPackagesSourcesAndItsPackageMayNameIt() throws {
  let manifest = """
    domains:
      Menu: { state: MenuState }
    worlds:
      ShopWorld: { module: ShopApp, domains: [Menu] }
      ScenarioWorld: { module: ShopScenarios, domains: [Menu] }
    """
  let root = try TemporaryRoot()
  try root.write("codegen.yaml", manifest)
  try root.write("Packages/ShopApp/Sources/ShopApp/ShopWorld.swift", "public struct ShopWorld {}\n")
  try root.write(
    "Packages/ShopApp/Sources/ShopScenarios/ScenarioWorld.swift", "import ShopApp\npublic struct ScenarioWorld {}\n")
  try root.write("Packages/ShopApp/Tests/ScenarioTests/Use.swift", "import ShopScenarios\nlet w = ScenarioWorld()\n")
  try root.write("Packages/Menu/Sources/Menu/Leak.swift", "import ShopScenarios\nlet w = ScenarioWorld()\n")
  let decoded = try ManifestDecoder.decode(manifest)
  let violations = PerimeterCheck(root: root.url, worlds: decoded.worlds).violations().map(\.description)
  #expect(
    violations == [
      "Packages/Menu/Sources/Menu/Leak.swift:1:8: error: a domain imports the composition root 'ShopScenarios'; "
        + "depend on capabilities instead",
      "Packages/Menu/Sources/Menu/Leak.swift:2:9: error: 'ScenarioWorld' is named outside its composition root "
        + "'ShopScenarios'; depend on capabilities instead",
    ])
}

@Test func checkRefusesAFolderForAScenarioASharedScenarioAndFilesThatAreNoRecordings() throws {
  let manifest = """
    domains:
      Menu: { state: MenuState }
    worlds:
      ShopWorld: { module: ShopApp, domains: [Menu] }
    features:
      menu: { world: ShopWorld, scenario: Tests/Menu.swift, fixtures: [] }
      board: { world: ShopWorld, scenario: Tests/Menu.swift, fixtures: [] }
      stock: { world: ShopWorld, scenario: Tests/Folder.swift, fixtures: [] }
    """
  let root = try TemporaryRoot()
  try root.write("codegen.yaml", manifest)
  try root.write("Tests/Menu.swift", "// scenarios\n")
  try root.write("Tests/Folder.swift/inside.txt", "a folder named like a file\n")
  try root.write("Tests/Recordings/menu/Bad_Name.json", "{}\n")
  try root.write("Tests/Recordings/menu/notes.txt", "notes\n")
  try root.write("Tests/Recordings/README.md", "# recordings\n")
  try FileManager.default.createDirectory(
    at: root.url.appendingPathComponent("Tests/Recordings/gone"), withIntermediateDirectories: true)
  let found = FeatureCheck(root: root.url, manifest: try ManifestDecoder.decode(manifest)).diagnostics()
  #expect(
    found.map(\.description) == [
      "6:57: error: Tests/Recordings/menu/Bad_Name.json is not a recording: only <fixture>.json files, "
        + "named as fixtures are, belong in a feature's folder",
      "6:57: error: Tests/Recordings/menu/notes.txt is not a recording: only <fixture>.json files, "
        + "named as fixtures are, belong in a feature's folder",
      "7:40: error: feature 'board' shares its scenario file with feature 'menu'; each feature has its own",
      "8:40: error: scenario file 'Tests/Folder.swift' of feature 'stock' is a folder, not a file",
      "5:1: error: Tests/Recordings/README.md is not a feature's folder; only folders of recordings belong there",
    ])
}

/// A scenario file that uses Swift Testing's macros without importing it would
/// give one compiler error per use; check gives one line, at the feature.
@Test func aScenarioFileThatUsesTestWithoutImportingTestingIsOneError() throws {
  let root = try TemporaryRoot()
  try root.write("codegen.yaml", featureManifest)
  for file in ["menu/pricing.a-latte", "menu/pricing.an-espresso", "board/empty"] {
    try root.write("Tests/Recordings/\(file).json", "{}\n")
  }
  // In a comment or a string, `@Test` is not a use.
  try root.write("Tests/BoardScenarios.swift", "// @Test is Swift Testing's\nlet note = \"#expect\"\n")
  try root.write(
    "Tests/MenuScenarios.swift", "import ScenarioTesting\n\n@Suite struct MenuScenarios {\n  @Test func leaf() {}\n}\n")
  let manifest = try ManifestDecoder.decode(featureManifest)
  #expect(
    FeatureCheck(root: root.url, manifest: manifest).diagnostics().map(\.description) == [
      "8:15: error: scenario file 'Tests/MenuScenarios.swift' uses @Suite (line 3, column 1) but does not "
        + "'import Testing'; add the import"
    ])
  try root.write(
    "Tests/MenuScenarios.swift",
    "import ScenarioTesting\nimport Testing\n\n@Suite struct MenuScenarios {\n  @Test func leaf() {}\n}\n")
  #expect(FeatureCheck(root: root.url, manifest: manifest).diagnostics() == [])
}
