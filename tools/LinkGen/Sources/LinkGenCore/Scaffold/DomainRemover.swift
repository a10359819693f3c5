import Foundation

/// `linkgen remove-domain`: undoes what `new-domain` did, all or nothing. The
/// domain leaves the manifest (its entry, every world's `domains` and
/// `links`), its line leaves the umbrella and every `// linkgen:WORLD-domains-end`
/// listing, its slice or stored service and its `import` leave every world's
/// struct, its package folder goes, and `Generated/` is regenerated.
///
/// It refuses, changing nothing, while anything else still uses the domain: an
/// `import` of it outside the lines `new-domain` wrote, or another package's
/// manifest naming it; each such place is listed as `file:line:column`.
public struct DomainRemover {
  let workspace: Workspace

  /// A remover for the repository `workspace` describes.
  public init(workspace: Workspace) { self.workspace = workspace }

  /// Removes domain `name`; returns the generation summary. Refused while its
  /// package holds work `new-domain` did not write (`changedWork`), unless `force`.
  public func removeDomain(named name: String, force: Bool = false) throws -> GeneratedTree.Summary {
    let manager = FileManager.default
    let root = workspace.root
    let oldManifest = try workspace.readManifestText()
    let manifest = try ManifestDecoder.decode(oldManifest)
    guard manifest.domains.contains(where: { $0.name == name }) else {
      throw LinkGenError(
        "no domain '\(name)' in the manifest\(Suggestion.hint(for: name, in: manifest.domains.map(\.name).sorted()))")
    }
    if let world = manifest.worlds.first(where: { $0.module == name }) {
      throw LinkGenError("'\(name)' is the module of world '\(world.name)'; move the world first")
    }
    // A world whose module lives in the package (a test world in its Tests/) would lose its struct.
    let ownModules = SourceModules(root: root).modules.filter { $0.package == name }
    if let world = manifest.worlds.first(where: { world in ownModules.contains { $0.name == world.module } }) {
      throw LinkGenError(
        "world '\(world.name)' lives in Packages/\(name) (module \(world.module)), which removing '\(name)' deletes; "
          + "move or delete the world first (nothing was changed)")
    }
    let newManifest = try ManifestEditor.removingDomain(named: name, from: oldManifest)

    // Every Swift file linkgen may edit, with the lines new-domain wrote taken out.
    let package = root.appendingPathComponent("Packages/\(name)")
    var edits: [URL: String] = [:]
    var inUse: [String] = []
    let property = DomainTemplates(name: name, kind: .state).property
    // The lines new-domain writes: in package manifests, the listings; in a world's struct, the declaration.
    let listings: Set<String> = ["\"\(name)\","]
    let umbrellaLine = "DomainPackage(name: \"\(name)\", uses: ["
    let declarations: Set<String> = [
      "/// The \(name) slice.", "public var \(property) = \(name)State()",
      "/// The \(name) service's stateful implementation, kept in the world.", "public var live\(name) = Live\(name)()",
    ]
    var typeNames: Set<String> = [
      "\(name)State", "\(name)Service", "Live\(name)", "Fake\(name)", "Has\(name)", "HasMutable\(name)",
      "\(name)ServiceMock", "\(name)ServiceWitness", "LinkRecording\(name)", "LinkWitness\(name)",
    ]
    // The domain's reads and commands are extension members of the world, used without an import
    // (`world.noteLoyalty(5)`): those whose names carry the domain's name are looked for too.
    for url in SwiftFiles.under(package.appendingPathComponent("Sources/\(name)")) {
      let tokens = SwiftTokens((try? String(contentsOf: url, encoding: .utf8)) ?? "").tokens
      for (keyword, declared) in zip(tokens, tokens.dropFirst())
      where ["func", "var", "let"].contains(keyword.text) && declared.kind == .identifier
        && declared.text.lowercased().contains(name.lowercased())
      {
        typeNames.insert(declared.text)
      }
    }
    for url in SwiftFiles.under(root) where !url.path.hasPrefix(package.path + "/") {
      let text = try String(contentsOf: url, encoding: .utf8)
      guard text.range(of: name, options: .caseInsensitive) != nil else { continue }
      let newline = text.contains("\r\n") ? "\r\n" : "\n"
      var lines = text.components(separatedBy: newline)
      let isManifest = url.lastPathComponent == "Package.swift"
      let count = lines.count
      if isManifest {
        lines.removeAll { line in
          let trimmed = line.trimmingCharacters(in: .whitespaces)
          return listings.contains(trimmed) || (trimmed.hasPrefix(umbrellaLine) && trimmed.hasSuffix("),"))
        }
      } else {
        lines.removeAll { declarations.contains($0.trimmingCharacters(in: .whitespaces)) }
        // The import new-domain added goes with the declaration, and only then.
        if lines.count < count { lines.removeAll { $0.trimmingCharacters(in: .whitespaces) == "import \(name)" } }
      }
      let edited = lines.joined(separator: newline)
      if edited != text { edits[url] = edited }
      // What is left must not use the domain.
      let relative = String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1))
      let tokens = SwiftTokens(edited)
      for module in tokens.imports where module.text == name || module.text == "\(name)Testing" {
        inUse.append("\(relative):\(module.line):\(module.column): imports '\(module.text)'")
      }
      for token in tokens.tokens {
        if isManifest, token.kind == .string,
          token.text == name || token.text == "\(name)Testing" || token.text.hasSuffix("/\(name)")
        {
          inUse.append("\(relative):\(token.line):\(token.column): names '\(token.text)'")
        } else if token.kind == .identifier, typeNames.contains(token.text) {
          inUse.append("\(relative):\(token.line):\(token.column): uses '\(token.text)'")
        }
      }
    }
    guard inUse.isEmpty else {
      throw LinkGenError(
        "'\(name)' is still used; remove these uses first (nothing was changed):\n"
          + inUse.map { "  \($0)" }.joined(separator: "\n"))
    }

    if let world = manifest.worlds.first(where: { $0.domains == [name] }) {
      throw LinkGenError(
        "world '\(world.name)' composes '\(name)' alone and would compose nothing; delete the world or give it another "
          + "domain first (nothing was changed)")
    }
    // The manifest without it must still hold.
    let remaining = try ManifestDecoder.decode(newManifest)
    if !force, let domain = manifest.domains.first(where: { $0.name == name }) {
      let changed = changedWork(in: package, of: domain)
      guard changed.isEmpty else {
        throw LinkGenError(
          "Packages/\(name) holds work new-domain did not write, which removing it would delete (nothing was changed):\n"
            + changed.map { "  \($0)" }.joined(separator: "\n")
            + "\nmove it out first, or run 'linkgen remove-domain \(name) --force' to delete it too")
      }
    }

    // The package folder is moved aside first and deleted last, so a failure can put it back.
    let aside = root.appendingPathComponent("Packages/.\(name).removing")
    var oldTexts: [URL: String] = [:]
    for url in edits.keys { oldTexts[url] = try String(contentsOf: url, encoding: .utf8) }
    var movedAside = false
    do {
      if manager.fileExists(atPath: package.path) {
        try manager.moveItem(at: package, to: aside)
        movedAside = true
      }
      try Data(newManifest.utf8).write(to: workspace.manifest, options: .atomic)
      for (url, text) in edits.sorted(by: { $0.key.path < $1.key.path }) {
        try Data(text.utf8).write(to: url, options: .atomic)
      }
      let summary = try GeneratedTree(root: root).apply(Generator.files(for: remaining))
      if movedAside { try? manager.removeItem(at: aside) }
      return summary
    } catch {
      try? Data(oldManifest.utf8).write(to: workspace.manifest, options: .atomic)
      for (url, text) in oldTexts { try? Data(text.utf8).write(to: url, options: .atomic) }
      if movedAside { try? manager.moveItem(at: aside, to: package) }
      _ = try? GeneratedTree(root: root).apply(Generator.files(for: manifest))
      throw (error as? LinkGenError)
        ?? LinkGenError("remove-domain failed and was rolled back: \((error as NSError).localizedDescription)")
    }
  }

  /// The files of the package `new-domain` did not write as they are: each
  /// added or changed file and link, `path: added` or `path: changed`. Build
  /// products (`.build`, `.swiftpm`) are not work. A domain of a kind
  /// `new-domain` does not scaffold (a resource) was written by hand: all of it is work.
  func changedWork(in package: URL, of domain: Domain) -> [String] {
    let manager = FileManager.default
    let kind: ScaffoldKind?
    switch domain.kind {
    case .state: kind = .state
    case .service: kind = .service
    default: kind = nil
    }
    let uses =
      UmbrellaCheck.listings(
        in: (try? String(contentsOf: workspace.root.appendingPathComponent("Package.swift"), encoding: .utf8)) ?? ""
      )
      .first { $0.name == domain.name }?.uses ?? []
    // What new-domain wrote, with the uses in the order the umbrella lists them (it writes both alike).
    let written = kind.map { DomainTemplates(name: domain.name, kind: $0, uses: uses) }
    guard let enumerator = manager.enumerator(atPath: package.path) else { return [] }
    var changed: [String] = []
    while let relative = enumerator.nextObject() as? String {
      let url = package.appendingPathComponent(relative)
      let first = relative.split(separator: "/").first.map(String.init) ?? relative
      if [".build", ".swiftpm"].contains(first) {
        enumerator.skipDescendants()
        continue
      }
      if let destination = try? manager.destinationOfSymbolicLink(atPath: url.path) {
        if written?.links[relative] != destination {
          changed.append("Packages/\(domain.name)/\(relative): added")
        }
        enumerator.skipDescendants()
        continue
      }
      var isFolder: ObjCBool = false
      guard manager.fileExists(atPath: url.path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
      guard let expected = written?.files[relative] else {
        changed.append("Packages/\(domain.name)/\(relative): added")
        continue
      }
      if let text = try? String(contentsOf: url, encoding: .utf8), text == expected {
        continue
      } else {
        changed.append("Packages/\(domain.name)/\(relative): changed")
      }
    }
    return changed.sorted()
  }
}
