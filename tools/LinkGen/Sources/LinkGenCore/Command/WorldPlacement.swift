import Foundation

/// Checks a manifest's worlds against the packages on disk, before anything is
/// written: what the compiler would otherwise report as an error inside a
/// generated file, or what would silently move a world's conformance away.
struct WorldPlacement {
  let root: URL
  let manifest: Manifest
  /// A walk of the tree made just before, or nil to walk it here.
  var scan: RepositoryScan? = nil

  /// Every problem, one line each, naming the file to fix.
  func problems() -> [String] {
    var problems: [String] = []
    let scan = scan ?? RepositoryScan(root: root)
    let prefix = Generator.outputFolder + "/"
    let existingFolders = Set(
      scan.generatedFolders.filter { !$0.dropFirst(prefix.count).contains("/") }.map {
        String($0.dropFirst(prefix.count))
      }
        + scan.generatedFiles.filter { !$0.dropFirst(prefix.count).contains("/") }.map {
          String($0.dropFirst(prefix.count))
        })
    let wiring = GeneratedWiring(root: root, scan: scan)
    let linked = existingFolders.subtracting(wiring.unlinkedFolders(among: existingFolders))
    for world in manifest.worlds {
      // A module name that is new, compiled by nothing, and one letter away from
      // a folder that is compiled: a typo that would orphan the world.
      if !existingFolders.contains(world.module), let meant = Suggestion.closest(to: world.module, in: linked.sorted()),
        meant != world.module
      {
        problems.append(
          "world '\(world.name)' is placed in module '\(world.module)', which no package compiles; "
            + "did you mean '\(meant)'? (nothing was written)")
      }
      // The world's package must depend on every domain it composes.
      let packageManifest = root.appendingPathComponent("Packages/\(world.module)/Package.swift")
      guard let text = try? String(contentsOf: packageManifest, encoding: .utf8) else { continue }
      let literals = Set(SwiftTokens(text).tokens.filter { $0.kind == .string }.map(\.text))
      for domain in world.domains where domain != world.module {
        let named = literals.contains(domain) || literals.contains { $0.hasSuffix("/\(domain)") }
        if !named {
          problems.append(
            "world '\(world.name)' composes '\(domain)', but its package does not depend on it; "
              + "add '\(domain)' to Packages/\(world.module)/Package.swift")
        }
      }
    }
    return problems
  }
}
