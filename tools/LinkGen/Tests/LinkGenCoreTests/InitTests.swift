import Foundation
import Testing

@testable import LinkGenCore

/// A bare git repository with the tags given, in a folder of `root`: what `init --url` reads.
func bareRepository(in root: TemporaryRoot, named name: String, tags: [String]) throws -> URL {
  let work = root.url.appendingPathComponent("work-\(name)")
  let bare = root.url.appendingPathComponent("\(name).git")
  try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
  try Data("readme\n".utf8).write(to: work.appendingPathComponent("README"))
  let commands =
    [
      ["-C", work.path, "init", "-q"], ["-C", work.path, "add", "README"],
      ["-C", work.path, "-c", "user.name=t", "-c", "user.email=t@localhost", "commit", "-q", "-m", "one"],
    ] + tags.map { ["-C", work.path, "tag", $0] } + [["clone", "-q", "--bare", work.path, bare.path]]
  for arguments in commands {
    let (status, output) = try Toolchain.run("git", arguments)
    try #require(status == 0, "git \(arguments): \(output)")
  }
  return bare
}

@Test func initFromAURLDependsOnItAtTheTagAndWritesNoPathOfThisMachine() throws {
  let root = try TemporaryRoot()
  let bare = try bareRepository(in: root, named: "Service-Linker", tags: ["v1.2.0"])
  let folder = root.url.appendingPathComponent("Shop")
  let url = "file://\(bare.path)"
  let (status, _, errors) = runLinkGen(["init", "--root", folder.path, "--url", url, "--version", "v1.2.0"])
  #expect(status == .success, "\(errors)")
  let package = try String(contentsOf: folder.appendingPathComponent("Package.swift"), encoding: .utf8)
  let app = try String(contentsOf: folder.appendingPathComponent("Packages/App/Package.swift"), encoding: .utf8)
  let makefile = try String(contentsOf: folder.appendingPathComponent("linkgen.mk"), encoding: .utf8)
  let declaration = ".package(url: \"\(url)\", from: \"1.2.0\")"
  #expect(package.contains("let serviceLinker: Package.Dependency = \(declaration)"), "\(package)")
  #expect(app.contains(declaration), "\(app)")
  for manifest in [package, app] {
    #expect(manifest.contains(".product(name: name, package: \"service-linker\")"), "the identity, in lower case")
  }
  // SwiftPM checks the URL out under its last component as written, capitals kept.
  #expect(makefile.contains("SERVICE_LINKER ?= .build/checkouts/Service-Linker/Packages/ServiceLinker"))
  #expect(makefile.contains("LINKGEN := .build/debug/linkgen") && makefile.contains("--product linkgen"))
  // Nothing names this machine: not the starter's folder, not this checkout.
  for file in ["Package.swift", "Packages/App/Package.swift", "linkgen.mk", "Makefile", "codegen.yaml"] {
    let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
    #expect(
      !text.contains(folder.path) && !text.contains(thisRepository.path), "\(file) names a folder of this machine")
  }
}

@Test func initRefusesATagTheURLDoesNotHaveAndWritesNothing() throws {
  let root = try TemporaryRoot()
  let bare = try bareRepository(in: root, named: "framework", tags: ["1.0.0"])
  let folder = root.url.appendingPathComponent("Shop")
  let (status, _, errors) = runLinkGen([
    "init", "--root", folder.path, "--url", "file://\(bare.path)", "--version", "2.0.0",
  ])
  #expect(status == .failure)
  #expect(errors == "error: '--version': 'file://\(bare.path)' has no tag '2.0.0'; its tags include 1.0.0")
  #expect(!FileManager.default.fileExists(atPath: folder.path), "no folder is left behind")
}

@Test func initRefusesAURLNoGitServerAnswersAndWritesNothing() throws {
  let root = try TemporaryRoot()
  let folder = root.url.appendingPathComponent("Shop")
  let missing = root.url.appendingPathComponent("nowhere.git").path
  let (status, _, errors) = runLinkGen([
    "init", "--root", folder.path, "--url", "file://\(missing)", "--version", "1.0.0",
  ])
  #expect(status == .failure)
  #expect(errors.hasPrefix("error: '--url': could not list the tags of 'file://\(missing)': "), "\(errors)")
  #expect(!FileManager.default.fileExists(atPath: folder.path))
}

@Test(arguments: [
  (["--url", "file:///x/sl.git"], "error: '--url' needs '--version TAG', the tag to start from"),
  (
    ["--url", "/x/sl.git", "--version", "1.0.0"],
    "error: '--url': '/x/sl.git' is not a git URL (file://, https://, ssh://, or user@host:path); for a folder on this machine use '--framework DIR'"
  ),
  (
    ["--url", "https://example.com/a \"b.git", "--version", "1.0.0"],
    "error: '--url': 'https://example.com/a \"b.git' holds a space, a quote, a backslash or a character outside ASCII"
  ),
  (
    ["--url", "https://example.com/sl.git", "--version", "main"],
    "error: '--version': 'main' is not a semantic version tag (like 1.2.0 or v1.2.0); SwiftPM resolves only those"
  ),
  (
    ["--url", "https://example.com/sl.git", "--version", "1.0.0", "--framework", "."],
    "error: '--url' and '--framework' both name the framework; give one"
  ),
  (["--version", "1.0.0"], "error: '--version' goes with '--url'; a folder has no tag to take"),
])
func initRefusesABadURLOrVersionWithOneLineAndWritesNothing(arguments: [String], message: String) throws {
  let root = try TemporaryRoot()
  let folder = root.url.appendingPathComponent("Shop")
  let (status, _, errors) = runLinkGen(["init", "--root", folder.path] + arguments)
  #expect(status == .failure)
  #expect(errors == message)
  #expect(!FileManager.default.fileExists(atPath: folder.path))
}

@Test func aURLsIdentityIsItsLastComponentWithoutGitInLowerCase() throws {
  let cases = [
    ("https://example.com/you/Service-Linker.git", "service-linker"),
    ("https://example.com/you/service-linker/", "service-linker"),
    ("git@example.com:you/sl.git", "sl"),
    ("file:///srv/git/ServiceLinker", "servicelinker"),
  ]
  for (url, identity) in cases {
    #expect(try StarterDependency.parse(url: url, version: "1.0.0").identity == identity, "\(url)")
  }
}

@Test func initFromAFolderWritesItRelativeToTheNewRepository() throws {
  let root = try TemporaryRoot()
  let folder = root.url.appendingPathComponent("Shop")
  let (status, _, errors) = runLinkGen(["init", "--root", folder.path, "--framework", thisRepository.path])
  #expect(status == .success, "\(errors)")
  let relative = StarterDependency.relativePath(from: folder, to: thisRepository)
  #expect(relative.hasPrefix("../") && !relative.hasPrefix("/"))
  let package = try String(contentsOf: folder.appendingPathComponent("Package.swift"), encoding: .utf8)
  let app = try String(contentsOf: folder.appendingPathComponent("Packages/App/Package.swift"), encoding: .utf8)
  let makefile = try String(contentsOf: folder.appendingPathComponent("linkgen.mk"), encoding: .utf8)
  #expect(package.contains(".package(path: \"\(relative)\")"), "\(package)")
  #expect(app.contains(".package(path: \"../../\(relative)\")"), "\(app)")
  #expect(makefile.contains("SERVICE_LINKER ?= \(relative)/Packages/ServiceLinker"))
  let identity = thisRepository.standardizedFileURL.lastPathComponent.lowercased()
  #expect(package.contains("package: \"\(identity)\")"))
  #expect(
    !package.contains("\"\(thisRepository.path)") && !app.contains("\"\(thisRepository.path)"), "no absolute path")
}

@Test func aRelativePathClimbsToTheSharedFolderAndDescends() {
  let cases = [
    ("/a/b/c", "/a/d", "../../d"),
    ("/a/b", "/a/b", "."),
    ("/a", "/a/b/c", "b/c"),
    ("/x/y", "/z", "../../z"),
  ]
  for (base, destination, expected) in cases {
    let path = StarterDependency.relativePath(
      from: URL(fileURLWithPath: base), to: URL(fileURLWithPath: destination))
    #expect(path == expected, "\(base) → \(destination)")
  }
}

@Test func aDomainNamedLikeADependencysModuleIsRefusedBeforeAnythingIsWritten() throws {
  let root = try TemporaryRoot()
  try root.write("codegen.yaml", commentedManifest)
  try root.write(
    "Package.swift",
    """
    // swift-tools-version: 6.2
    import PackageDescription
    let package = Package(name: "Shop", dependencies: [.package(path: "Vendor")], targets: [])

    """)
  try root.write(
    "Vendor/Package.swift",
    """
    // swift-tools-version: 6.2
    import PackageDescription
    let package = Package(name: "Vendor", targets: [.target(name: "Stock"), .target(name: "LedgerTests")])

    """)
  let before = root.contents()
  for (name, module) in [("Stock", "Stock"), ("Ledger", "LedgerTests")] {
    let (status, _, errors) = root.run(["new-domain", name])
    #expect(status == .failure)
    #expect(
      errors.contains("'\(module)' is already a module of the package 'vendor' this repository depends on"),
      "\(errors)")
  }
  #expect(root.contents().keys.sorted() == before.keys.sorted(), "nothing written")
  #expect(!root.run(["new-domain", "Shelves"]).2.contains("already a module"), "another name is not refused so")
}

@Test func aFrameworkFolderThroughASymbolicLinkIsNamedAsItsTarget() throws {
  let root = try TemporaryRoot()
  let link = root.url.appendingPathComponent("sl-link")
  try FileManager.default.createSymbolicLink(at: link, withDestinationURL: thisRepository)
  let folder = root.url.appendingPathComponent("Shop")
  let (status, _, errors) = runLinkGen(["init", "--root", folder.path, "--framework", link.path])
  #expect(status == .success, "\(errors)")
  let package = try String(contentsOf: folder.appendingPathComponent("Package.swift"), encoding: .utf8)
  let identity = thisRepository.resolvingSymlinksInPath().lastPathComponent.lowercased()
  #expect(package.contains("package: \"\(identity)\")"), "the identity SwiftPM gives the path written")
  #expect(!package.contains("sl-link"))
}
