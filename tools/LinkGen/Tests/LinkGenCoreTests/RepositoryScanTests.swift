import Foundation
import Testing

@testable import LinkGenCore

@Test func oneWalkFindsGeneratedFilesLinksAndSourcesAndNeverEntersBuildOrGit() throws {
  let root = try TemporaryRoot()
  try root.write("Generated/Menu/HasMenu.swift", "// generated\n")
  try root.write("Generated/Menu/Nested/Deep.swift", "// generated\n")
  try root.write("Packages/Menu/Sources/Menu/Menu.swift", "struct Menu {}\n")
  try root.write("Packages/Menu/Sources/Menu/Notes.md", "notes\n")
  try root.write("Packages/Menu/.build/debug/Built.swift", "// build output\n")
  try root.write(".git/hooks/Hook.swift", "// not source\n")
  try root.write("tools/Tool.swift", "// a tool\n")
  let manager = FileManager.default
  try manager.createSymbolicLink(
    atPath: root.url.appendingPathComponent("Packages/Menu/Sources/Menu/Generated").path,
    withDestinationPath: "../../../../Generated/Menu")
  try manager.createSymbolicLink(
    atPath: root.url.appendingPathComponent("Packages/Menu/Sources/Menu/Shared.swift").path,
    withDestinationPath: "../../../../tools/Tool.swift")
  try manager.createSymbolicLink(
    atPath: root.url.appendingPathComponent("Generated/Stray.swift").path, withDestinationPath: "Menu/HasMenu.swift")

  let scan = RepositoryScan(root: root.url)

  #expect(
    scan.generatedFiles == [
      "Generated/Menu/HasMenu.swift", "Generated/Menu/Nested/Deep.swift", "Generated/Stray.swift",
    ])
  #expect(scan.generatedFolders == ["Generated/Menu", "Generated/Menu/Nested"])
  #expect(scan.swiftFiles == ["Packages/Menu/Sources/Menu/Menu.swift", "tools/Tool.swift"])
  #expect(
    scan.links.map(\.path) == ["Packages/Menu/Sources/Menu/Generated", "Packages/Menu/Sources/Menu/Shared.swift"])
  #expect(scan.links.map(\.destination) == ["../../../../Generated/Menu", "../../../../tools/Tool.swift"])
  // A linked file counts where it is linked; a linked folder is scanned where it lives.
  #expect(
    scan.swiftFiles(under: "Packages") == [
      "Packages/Menu/Sources/Menu/Menu.swift", "Packages/Menu/Sources/Menu/Shared.swift",
    ])
  #expect(scan.swiftFiles(under: "Generated") == scan.generatedFiles)
  #expect(scan.kinds["Packages/Menu/.build/debug"] == nil)
  #expect(RepositoryScan(root: root.url, within: "Generated").generatedFiles == scan.generatedFiles)
}

@Test func identifiersReadTheSameWhetherASCIIOrNot() {
  let source = "let café_2 = x1 + 42abc // World\n`World`.Ünïcode(_under, Z9z) \"World \\(inner)\""
  let identifiers = SwiftTokens(source).tokens.filter { $0.kind == .identifier }
  #expect(identifiers.map(\.text) == ["let", "café_2", "x1", "World", "Ünïcode", "_under", "Z9z", "inner"])
  #expect(identifiers.map(\.column) == [1, 5, 14, 2, 9, 17, 25, 39])
  #expect(identifiers.map(\.line) == [1, 1, 1, 2, 2, 2, 2, 2])
}
