import Foundation
import LinkGenCore
import Testing

/// A repository whose umbrella lists Loans (using Books) and the Notifier
/// service, each with a package manifest that agrees.
private func agreeingRoot() throws -> TemporaryRoot {
  let root = try TemporaryRoot()
  try root.write("codegen.yaml", commentedManifest)
  try root.write("Package.swift", rootPackage)
  for arguments in [["Books"], ["Loans", "--uses", "Books"], ["Notifier", "--kind", "service"]] {
    let (status, _, errors) = root.run(["new-domain"] + arguments)
    #expect(status == .success, "\(errors)")
  }
  try root.linkGeneratedFolders()
  try root.write("Packages/Menu/Package.swift", "targets: [.target(name: \"Menu\")]\n")
  return root
}

@Test func checkPassesWhenTheUmbrellaAndEachPackageNameTheSameDependencies() throws {
  let root = try agreeingRoot()
  let (status, output, errors) = root.run(["check"])
  #expect(status == .success, "\(errors)")
  #expect(output.hasPrefix("linkgen: Generated/ is up to date"))
}

@Test(arguments: [
  (
    "Package.swift", "DomainPackage(name: \"Loans\", uses: [\"Books\"])",
    "DomainPackage(name: \"Loans\", uses: [\"Books\", \"Menu\"])",
    "Packages/Loans/Package.swift:11:6: error: target 'Loans' depends on [Books], but the umbrella Package.swift:"
  ),
  (
    "Packages/Loans/Package.swift", ".product(name: \"Books\", package: \"Books\")", "\"Books\", \"Menu\"",
    "error: target 'Loans' depends on [Books, Menu], but the umbrella Package.swift:"
  ),
  (
    "Package.swift", "DomainPackage(name: \"Notifier\", uses: [], testing: true)",
    "DomainPackage(name: \"Notifier\", uses: [])",
    "has a 'NotifierTesting' target, but the umbrella does not build it; list 'Notifier' with 'testing: true'"
  ),
  (
    "Package.swift", "DomainPackage(name: \"Books\", uses: [])",
    "DomainPackage(name: \"Books\", uses: [], testing: true)",
    "the umbrella lists 'Books' with 'testing: true', but Packages/Books/Package.swift has no 'BooksTesting' target"
  ),
  (
    "Package.swift", "DomainPackage(name: \"Books\", uses: [])",
    "DomainPackage(name: \"Books\", uses: []),\n  DomainPackage(name: \"Shelves\", uses: [])",
    "error: domain 'Shelves' has no Packages/Shelves/Package.swift"
  ),
  (
    "Package.swift", "  DomainPackage(name: \"Books\", uses: []),\n", "",
    "error: domain 'Books' has its own Packages/Books/Package.swift, but the umbrella's DomainPackage listing leaves it "
      + "out, so the umbrella does not build it"
  ),
])
func checkFailsAtThePlaceWhereTheUmbrellaAndAPackageDisagree(
  file: String, listed: String, drifted: String, message: String
) throws {
  try expectCheckFails(in: agreeingRoot(), editing: file, replacing: listed, with: drifted, saying: message)
}

/// A dependency written `.target(name:)` is a dependency, not a target of its own.
@Test func aTargetNamedAsADependencyIsNotTakenForADeclaration() throws {
  let root = try agreeingRoot()
  try root.write(
    "Packages/Loans/Package.swift",
    """
    let package = Package(
      name: "Loans",
      targets: [
        .testTarget(name: "LoansTests", dependencies: [.target(name: "Loans")]),
        .target(name: "Loans", dependencies: [.target(name: "Books")], path: "Sources/Loans"),
      ]
    )

    """)
  #expect(root.run(["check"]).0 == .success)
}

/// This repository's own umbrella and packages agree (make check also runs it).
@Test func thisRepositorysUmbrellaAgreesWithItsPackages() {
  let repository = thisRepository
  var errors: [String] = []
  let status = LinkGenCommand(
    arguments: ["check", "--root", repository.path], standardOutput: { _ in }, standardError: { errors.append($0) }
  ).run()
  #expect(status == .success, "\(errors)")
}
