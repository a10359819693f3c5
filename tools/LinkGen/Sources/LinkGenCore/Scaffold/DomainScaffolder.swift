import Foundation

/// `linkgen new-domain`: adds a domain to the manifest, scaffolds its package and
/// regenerates, all or nothing.
public struct DomainScaffolder {
  /// The line in the root `Package.swift` before which new domains are listed.
  public static let rootManifestMarker = "// linkgen:domains-end"

  let workspace: Workspace

  /// A scaffolder for the repository `workspace` describes.
  public init(workspace: Workspace) { self.workspace = workspace }

  /// Adds domain `name` of `kind`, and wires it into each of `worlds`
  /// (`WorldWiring`): a world is named alone, or as `World:Fake` to link a new
  /// service's stateless fake there instead of its `Live` implementation.
  /// Returns the generation summary and every world wired, in order: those
  /// named, and those that share a named world's snapshot.
  public func addDomain(
    named name: String, kind: ScaffoldKind, worlds worldNames: [String] = [], uses: [String] = []
  ) throws -> (summary: GeneratedTree.Summary, worlds: [String]) {
    if let problem = SwiftIdentifier.problem(with: name) { throw LinkGenError(problem) }
    guard name.first?.isUppercase == true else {
      throw LinkGenError("a domain name starts with a capital letter, like 'Loyalty'")
    }
    let manager = FileManager.default
    let package = workspace.root.appendingPathComponent("Packages/\(name)")
    // Everything is computed and checked before the first write.
    let oldManifest = try workspace.readManifestText()
    let old = try ManifestDecoder.decode(oldManifest)
    // A domain named as a world would put the world's name in the domain's package, outside its root.
    if let world = old.worlds.first(where: { $0.name == name }) {
      throw LinkGenError("'\(name)' is the name of a world (in module \(world.module)); choose another name")
    }
    if uses.contains(name) { throw LinkGenError("'--uses': a domain cannot use itself ('\(name)')") }
    if let problem = DependencyModules(root: workspace.root).problem(with: name) { throw LinkGenError(problem) }
    let templates = DomainTemplates(name: name, kind: kind, uses: uses)

    var newManifest = try ManifestEditor.addingDomain(named: name, entry: templates.manifestEntry, to: oldManifest)
    guard !manager.fileExists(atPath: package.path) else {
      throw LinkGenError("'Packages/\(name)' already exists")
    }
    var swiftEdits: [URL: String] = [:]
    var wired: [String] = []
    let worlds = old.worlds
    // The world's snapshot (its `snapshot`, `restore`, generic code over its slices)
    // applies to every world with at least its slices: a new slice goes to all of them,
    // or they would silently stop being such worlds.
    let stateNames = Set(old.domains.filter { if case .state = $0.kind { true } else { false } }.map(\.name))
    let states = { (world: World) in Set(world.domains).intersection(stateNames) }
    for named in worldNames {
      let parts = named.split(separator: ":", maxSplits: 1).map(String.init)
      let worldName = parts.first ?? named
      var link = ScaffoldLink.live
      if parts.count == 2 {
        guard let picked = ScaffoldLink(rawValue: parts[1]) else {
          throw LinkGenError(
            "'--world \(named)': a world's link is 'Live' or 'Fake', not '\(parts[1])'"
              + Suggestion.hint(for: parts[1], in: ScaffoldLink.allCases.map(\.rawValue)))
        }
        guard kind == .service else {
          throw LinkGenError("'--world \(named)': only a service is linked; a state domain takes no ':\(parts[1])'")
        }
        link = picked
      }
      guard let world = worlds.first(where: { $0.name == worldName }) else {
        throw LinkGenError(
          "no world '\(worldName)' in the manifest\(Suggestion.hint(for: worldName, in: worlds.map(\.name).sorted()))")
      }
      var targets = [(world, true)]
      if kind == .state, world.snapshot != nil {
        targets += worlds.filter { $0.name != world.name && states($0).isSuperset(of: states(world)) }.map {
          ($0, false)
        }
      }
      for (target, isNamed) in targets where !wired.contains(target.name) {
        wired.append(target.name)
        let wiring = WorldWiring(
          root: workspace.root, world: target, domain: name, kind: kind, link: link, requiresPackageMarker: isNamed)
        newManifest = try wiring.addingToWorld(in: newManifest)
        swiftEdits = try wiring.swiftEdits(onTopOf: swiftEdits)
      }
    }
    let manifest = try ManifestDecoder.decode(newManifest)
    // Each domain it uses must be one with a package of its own: the new package depends on it by path.
    for used in uses {
      guard used != name, manifest.domains.contains(where: { $0.name == used }) else {
        let others = manifest.domains.map(\.name).filter { $0 != name }.sorted()
        throw LinkGenError("'--uses': no domain '\(used)' in the manifest\(Suggestion.hint(for: used, in: others))")
      }
      guard manager.fileExists(atPath: workspace.root.appendingPathComponent("Packages/\(used)/Package.swift").path)
      else {
        throw LinkGenError("'--uses': domain '\(used)' has no package at Packages/\(used) to depend on")
      }
    }
    for folder in [name, "\(name)Testing"]
    where manager.fileExists(atPath: workspace.root.appendingPathComponent("\(Generator.outputFolder)/\(folder)").path)
    {
      throw LinkGenError("'\(Generator.outputFolder)/\(folder)' already exists; remove it or choose another name")
    }
    // The worlds being wired get their dependency from the edits below; every other world is checked now.
    let placement = WorldPlacement(root: workspace.root, manifest: manifest).problems().filter {
      wired.isEmpty || !($0.hasPrefix("world '") && $0.contains("' composes '\(name)'"))
    }
    guard placement.isEmpty else { throw LinkGenError(placement.joined(separator: "\nerror: ")) }
    if let world = manifest.worlds.first(where: { $0.module == name }) {
      throw LinkGenError("'\(name)' is the module of world '\(world.name)'; choose another name")
    }
    let rootPackage = workspace.root.appendingPathComponent("Package.swift")
    let oldRootPackage = try? String(contentsOf: rootPackage, encoding: .utf8)
    if let oldRootPackage, SwiftTokens(oldRootPackage).tokens.contains(where: { $0.kind == .string && $0.text == name })
    {
      throw LinkGenError("Package.swift already names '\(name)' (a target or product); choose another name")
    }
    let newRootPackage = try oldRootPackage.map { try addingPackage(name, kind: kind, uses: uses, to: $0) }
    var oldSwift: [URL: String] = [:]
    for url in swiftEdits.keys { oldSwift[url] = try String(contentsOf: url, encoding: .utf8) }
    // The umbrella may hold the domains marker and worlds' markers (the named
    // world's and its twins'): the domain's line goes on top of every listing.
    if newRootPackage != nil,
      let key = swiftEdits.keys.first(where: { $0.standardizedFileURL == rootPackage.standardizedFileURL }),
      let listed = swiftEdits[key]
    {
      swiftEdits[key] = try addingPackage(name, kind: kind, uses: uses, to: listed)
    }

    do {
      try ScaffoldFiles.write(templates.files, links: templates.links, under: package)
      try Data(newManifest.utf8).write(to: workspace.manifest, options: .atomic)
      if let newRootPackage { try Data(newRootPackage.utf8).write(to: rootPackage, options: .atomic) }
      for (url, text) in swiftEdits.sorted(by: { $0.key.path < $1.key.path }) {
        try Data(text.utf8).write(to: url, options: .atomic)
      }
      let problems = WorldPlacement(root: workspace.root, manifest: manifest).problems()
      guard problems.isEmpty else { throw LinkGenError(problems.joined(separator: "\nerror: ")) }
      return (try GeneratedTree(root: workspace.root).apply(Generator.files(for: manifest)), wired)
    } catch {
      // Put everything back the way it was.
      try? manager.removeItem(at: package)
      try? Data(oldManifest.utf8).write(to: workspace.manifest, options: .atomic)
      if let oldRootPackage { try? Data(oldRootPackage.utf8).write(to: rootPackage, options: .atomic) }
      for (url, text) in oldSwift { try? Data(text.utf8).write(to: url, options: .atomic) }
      if let previous = try? ManifestDecoder.decode(oldManifest) {
        _ = try? GeneratedTree(root: workspace.root).apply(Generator.files(for: previous))
      }
      throw (error as? LinkGenError) ?? (error as? DiagnosticError).map { $0 as Error }
        ?? LinkGenError("new-domain failed and was rolled back: \((error as NSError).localizedDescription)")
    }
  }

  /// The root manifest with `name` listed before the marker line; a service is
  /// listed with `testing: true`, so that the umbrella builds its `<Name>Testing` library.
  private func addingPackage(_ name: String, kind: ScaffoldKind, uses: [String], to text: String) throws -> String {
    let newline = text.contains("\r\n") ? "\r\n" : "\n"
    var lines = text.components(separatedBy: newline)
    guard
      let marker = lines.firstIndex(where: {
        $0.trimmingCharacters(in: .whitespaces).hasPrefix(Self.rootManifestMarker)
      })
    else {
      throw LinkGenError("Package.swift has no '\(Self.rootManifestMarker)' line to add the package before")
    }
    let indent = String(lines[marker].prefix { $0 == " " })
    let listed = uses.map { "\"\($0)\"" }.joined(separator: ", ")
    var testing = ""
    if kind == .service {
      guard SwiftTokens(text).tokens.contains(where: { $0.kind == .identifier && $0.text == "testing" }) else {
        throw LinkGenError(
          "Package.swift's DomainPackage has no 'testing' field, and service '\(name)' has a generated "
            + "\(name)Testing library for the umbrella to build: add 'var testing = false' to struct DomainPackage "
            + "and a '<Name>Testing' target for each package with 'testing: true' (docs/adopting.md)")
      }
      testing = ", testing: true"
    }
    lines.insert("\(indent)DomainPackage(name: \"\(name)\", uses: [\(listed)]\(testing)),", at: marker)
    return lines.joined(separator: newline)
  }
}
