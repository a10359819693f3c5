import Foundation
import LinkGenCore
import Testing

@Test func aSecondGenerateWritesNothingAndKeepsModificationDates() throws {
  let root = try TemporaryRoot()
  try root.write("codegen.yaml", Manifests.world)
  let (firstStatus, firstOutput, _) = root.run(["generate"])
  #expect(firstStatus == .success)
  #expect(firstOutput.hasPrefix("linkgen: 6 written, 0 unchanged, 0 deleted in "))
  let before = root.contents()
  Thread.sleep(forTimeInterval: 0.02)
  let (status, output, _) = root.run(["generate"])
  #expect(status == .success)
  #expect(output.hasPrefix("linkgen: 0 written, 6 unchanged, 0 deleted in "))
  #expect(TemporaryRoot.same(root.contents(), before))
}

@Test func onlyTheChangedFileIsRewritten() throws {
  let root = try TemporaryRoot()
  try root.write("codegen.yaml", Manifests.world)
  _ = root.run(["generate"])
  try root.write(
    "codegen.yaml",
    Manifests.world.replacingOccurrences(
      of: "Menu: { state: MenuState }", with: "Menu: { state: MenuState, doc: \"New words.\" }"))
  let summary = try GeneratedTree(root: root.url).apply(
    Generator.files(for: try ManifestDecoder.decode(root.read("codegen.yaml")!)))
  #expect(summary.written == ["Generated/Menu/HasMenu.swift"])
  #expect(summary.unchanged.count == 5)
}

@Test func filesNoLongerProducedAreDeletedWithTheirFolders() throws {
  let root = try TemporaryRoot()
  try root.write("codegen.yaml", Manifests.world)
  _ = root.run(["generate"])
  try root.write("Generated/Menu/Leftover.swift", "// hand-written by mistake\n")
  try root.write("codegen.yaml", Manifests.state)
  let (status, output, _) = root.run(["generate"])
  #expect(status == .success)
  #expect(output.hasPrefix("linkgen: 1 written, 0 unchanged, 6 deleted in "))
  #expect(GeneratedTree(root: root.url).existingFiles() == ["Generated/Menu/HasMenu.swift"])
  #expect(!root.exists("Generated/Payment"))
  #expect(!root.exists("Generated/ShopApp"))
}

@Test func checkListsStaleMissingAndExtraFilesAndNamesTheFix() throws {
  let root = try TemporaryRoot()
  try root.write("codegen.yaml", Manifests.world)
  #expect(root.run(["check"]).0 == .failure)
  _ = root.run(["generate"])
  try root.linkGeneratedFolders()
  #expect(root.run(["check"]) == (.success, "linkgen: Generated/ is up to date; the perimeter holds", ""))

  try root.write("Generated/Menu/HasMenu.swift", "// edited by hand\n")
  try root.write("Generated/Menu/Extra.swift", "\n")
  try FileManager.default.removeItem(at: root.url.appendingPathComponent("Generated/Journal/HasJournal.swift"))
  let before = root.contents()
  let (status, _, errors) = root.run(["check"])
  #expect(status == .failure)
  #expect(
    errors == """
      error: Generated/ is out of date with \(root.manifestPath):
        Generated/Journal/HasJournal.swift (missing)
        Generated/Menu/Extra.swift (no longer generated)
        Generated/Menu/HasMenu.swift (out of date)
      run 'make generate' to update it
      """)
  #expect(TemporaryRoot.same(root.contents(), before))
}

@Test func checkFailsForAGeneratedFolderNoPackageCompilesAndNamesTheLink() throws {
  let root = try TemporaryRoot()
  try root.write("codegen.yaml", Manifests.world)
  _ = root.run(["generate"])
  try root.linkGeneratedFolders()
  try FileManager.default.removeItem(at: root.url.appendingPathComponent("Packages/Payment/Sources/Payment/Generated"))
  let (status, _, errors) = root.run(["check"])
  #expect(status == .failure)
  #expect(
    errors
      == "error: Generated/Payment is generated but no package compiles it; link it into the module's sources, "
      + "e.g. 'ln -s ../../../../Generated/Payment Packages/Payment/Sources/Payment/Generated', "
      + "and give that package a 'Payment' target")
}

@Test func theLinkNamedForATestWorldsFolderIsInTheTestModule() throws {
  let root = try TemporaryRoot()
  try root.write(
    "codegen.yaml",
    Manifests.world + """

        ShopTestWorld:
          module: ShopAppTests
          doc: "The shop under test."
          domains: [Menu, Journal, Payment]
          links: { Payment: Mock }
      """)
  _ = root.run(["generate"])
  try root.linkGeneratedFolders()
  try FileManager.default.removeItem(at: root.url.appendingPathComponent("Packages/ShopAppTests"))
  try root.write("Packages/ShopApp/Tests/ShopAppTests/ShopTests.swift", "// tests\n")
  let (status, _, errors) = root.run(["check"])
  #expect(status == .failure)
  #expect(
    errors
      == "error: Generated/ShopAppTests is generated but no package compiles it; link it into the module's test "
      + "sources, e.g. 'ln -s ../../../../Generated/ShopAppTests Packages/ShopApp/Tests/ShopAppTests/Generated', "
      + "and give that package a 'ShopAppTests' test target")
}

@Test func aStrayLinkOrNestedFolderInGeneratedIsRemovedAndNoEmptyFolderStays() throws {
  let root = try TemporaryRoot()
  try root.write("codegen.yaml", Manifests.world)
  _ = root.run(["generate"])
  try root.write("Elsewhere/Sneaky.swift", "let x = 1\n")
  try FileManager.default.createSymbolicLink(
    atPath: root.url.appendingPathComponent("Generated/Menu/Sneaky.swift").path,
    withDestinationPath: "../../Elsewhere/Sneaky.swift")
  try root.write("Generated/Ghost/Deep/Stale.swift", "\n")
  #expect(root.run(["check"]).2.contains("Generated/Menu/Sneaky.swift (no longer generated)"))
  #expect(root.run(["generate"]).0 == .success)
  #expect(!root.exists("Generated/Menu/Sneaky.swift"))
  #expect(!root.exists("Generated/Ghost"))
  #expect(root.exists("Elsewhere/Sneaky.swift"), "the link's target is not touched")
}

@Test func aMisspelledWorldModuleIsRefusedBeforeItOrphansTheWorld() throws {
  let root = try TemporaryRoot()
  try root.write("codegen.yaml", Manifests.world)
  _ = root.run(["generate"])
  try root.linkGeneratedFolders()
  try root.write("codegen.yaml", Manifests.world.replacingOccurrences(of: "module: ShopApp", with: "module: ShpApp"))
  let (status, _, errors) = root.run(["generate"])
  #expect(status == .failure)
  #expect(
    errors
      == "error: world 'ShopWorld' is placed in module 'ShpApp', which no package compiles; did you mean 'ShopApp'? (nothing was written)"
  )
  #expect(root.exists("Generated/ShopApp/ShopWorld+Links.swift"))
  #expect(!root.exists("Generated/ShpApp"))
}

@Test func aWorldWhosePackageDoesNotDependOnADomainNamesTheManifestToFix() throws {
  let root = try TemporaryRoot()
  try root.write("codegen.yaml", Manifests.world)
  try root.write("Packages/ShopApp/Package.swift", "let domains = [\"Menu\", \"Journal\"]\n")
  let (status, _, errors) = root.run(["generate"])
  #expect(status == .failure)
  #expect(
    errors
      == "error: world 'ShopWorld' composes 'Payment', but its package does not depend on it; add 'Payment' to Packages/ShopApp/Package.swift"
  )
  #expect(!root.exists("Generated"))
}
