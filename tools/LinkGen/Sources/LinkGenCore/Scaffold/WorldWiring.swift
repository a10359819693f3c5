import Foundation

/// What `linkgen new-domain NAME --world WORLD` changes besides the domain's own
/// package: the world in `codegen.yaml` composes the domain (and links a
/// service's `Live` implementation, or its stateless `Fake`), and the files the world is built from
/// gain it at their marker lines, never anywhere else:
///
/// - `// linkgen:WORLD-domains-end` in a `Package.swift` (the world's package,
///   the umbrella): `"NAME",` is listed above it, in the array the manifest
///   builds the world's dependencies from;
/// - `// linkgen:WORLD-storage-end` in the world's struct: the slice (or the
///   service's stored implementation) is declared above it, with a default, so
///   the initializer needs no change.
///
/// A file without its marker is an error naming the file and the line to add.
struct WorldWiring {
  let root: URL
  let world: World
  let domain: String
  let kind: ScaffoldKind
  /// The link a service gets in this world: `Live` (stored in the world) or `Fake` (no storage).
  var link = ScaffoldLink.live
  /// False for a world wired along with the one named (it uses the same
  /// snapshot): its package manifests are listed when they have its marker,
  /// and may not (a test target of the umbrella, listed with the named world).
  var requiresPackageMarker = true

  var domainsMarker: String { "// linkgen:\(world.name)-domains-end" }
  var storageMarker: String { "// linkgen:\(world.name)-storage-end" }

  /// The manifest text with the domain composed by the world (and linked, for a service).
  func addingToWorld(in text: String) throws -> String {
    let (root, _) = try YAMLParser.parse(text)
    guard case .mapping(let top, _)? = root, let worlds = top.first(where: { $0.key == "worlds" }),
      case .mapping(let entries, _) = worlds.value, let entry = entries.first(where: { $0.key == world.name }),
      case .mapping(let fields, let fieldsSpan) = entry.value
    else {
      throw LinkGenError("world '\(world.name)' is not a mapping under 'worlds' in the manifest")
    }
    let newline = text.contains("\r\n") ? "\r\n" : "\n"
    var lines = text.components(separatedBy: newline)
    // Edits from the bottom up, so earlier line numbers stay right.
    var edits: [(line: Int, apply: (inout [String]) throws -> Void)] = []
    guard let domains = fields.first(where: { $0.key == "domains" }) else {
      throw LinkGenError("world '\(world.name)' has no 'domains' list")
    }
    edits.append((domains.value.span.start.line, { lines in try Self.append(self.domain, to: domains, in: &lines) }))
    if kind == .service {
      let pick = link.rawValue
      if let links = fields.first(where: { $0.key == "links" }) {
        edits.append(
          (links.value.span.start.line, { lines in try Self.link(self.domain, to: pick, in: links, in: &lines) }))
      } else {
        // No `links:` yet: one line after the world's last field, at its fields' indent.
        let last = fields.map { max($0.value.span.lastLine, $0.keyLocation.line) }.max() ?? fieldsSpan.lastLine
        let indent = String(repeating: " ", count: (fields.first?.keyLocation.column ?? 1) - 1)
        if fields.first.map({ $0.keyLocation.line > entry.keyLocation.line }) == true {
          edits.append((last + 1, { lines in lines.insert("\(indent)links: { \(self.domain): \(pick) }", at: last) }))
        } else {
          // `World: { module: M, domains: [A] }` on one line: the pick goes inside its braces.
          edits.append(
            (
              entry.keyLocation.line,
              { lines in
                try Self.insertInFlow(
                  ", links: { \(self.domain): \(pick) }", alone: " links: { \(self.domain): \(pick) } ", closing: "}",
                  at: entry, in: &lines, what: "world '\(self.world.name)'")
              }
            ))
        }
      }
    }
    for edit in edits.sorted(by: { $0.line > $1.line }) { try edit.apply(&lines) }
    return lines.joined(separator: newline)
  }

  /// Adds `name` to a `[A, B]` list on one line, or to a block list (`- A`).
  private static func append(_ name: String, to entry: YAMLEntry, in lines: inout [String]) throws {
    if case .sequence(let items, _) = entry.value, let first = items.first, first.location.line > entry.keyLocation.line
    {
      let indent = String(repeating: " ", count: max(0, first.location.column - 3))
      // After the last item's line: a block sequence's span ends where the next token starts.
      lines.insert("\(indent)- \(name)", at: items.last!.span.lastLine)
      return
    }
    try insertInFlow(", \(name)", alone: name, closing: "]", at: entry, in: &lines, what: "'domains' list")
  }

  /// Adds `name: pick` to a `{ A: B }` mapping on one line, or to a block mapping.
  private static func link(_ name: String, to pick: String, in entry: YAMLEntry, in lines: inout [String]) throws {
    if case .mapping(let picks, _) = entry.value, let first = picks.first,
      first.keyLocation.line > entry.keyLocation.line
    {
      let indent = String(repeating: " ", count: first.keyLocation.column - 1)
      lines.insert(
        "\(indent)\(name): \(pick)", at: ManifestEditor.blockLines(of: picks.last!.keyLocation, in: lines).upperBound)
      return
    }
    try insertInFlow(
      ", \(name): \(pick)", alone: " \(name): \(pick) ", closing: "}", at: entry, in: &lines, what: "'links'")
  }

  /// Inserts `text` after the last item of a one-line flow collection that ends
  /// with `closing`, or `alone` inside it when it is empty.
  private static func insertInFlow(
    _ text: String, alone: String, closing: Character, at entry: YAMLEntry, in lines: inout [String], what: String
  ) throws {
    let number = entry.value.span.start.line
    let line = lines[number - 1]
    guard entry.value.span.lastLine == number, let close = line.lastIndex(of: closing),
      let last = line[..<close].lastIndex(where: { $0 != " " })
    else {
      throw LinkGenError("cannot add to the \(what) on line \(number): write it on one line")
    }
    if line[last] == "[" || line[last] == "{" {
      lines[number - 1].replaceSubrange(line.index(after: last)..<close, with: alone)
    } else {
      lines[number - 1].insert(contentsOf: text, at: line.index(after: last))
    }
  }

  /// Every file under the root (`.build`, `.git` and `Generated/` aside) holding `marker`.
  func files(holding marker: String) -> [URL] {
    SwiftFiles.under(root).filter { url in
      (try? String(contentsOf: url, encoding: .utf8))?.contains(marker) == true
    }
  }

  /// The edits to the Swift files (path → new text), checked: the world's package
  /// manifest and its struct must both have their markers.
  /// `pending` holds edits already planned (another world's, in the same file):
  /// these edits build on them.
  func swiftEdits(onTopOf pending: [URL: String] = [:]) throws -> [URL: String] {
    var edits = pending
    func text(of url: URL) throws -> String { try edits[url] ?? String(contentsOf: url, encoding: .utf8) }
    let manifests = files(holding: domainsMarker).filter { $0.lastPathComponent == "Package.swift" }
    guard !manifests.isEmpty || !requiresPackageMarker else {
      throw LinkGenError(
        "no Package.swift has a '\(domainsMarker)' line: in the package of world '\(world.name)' (module "
          + "\(world.module)), list the domains it composes in an array with that line last, and build the "
          + "dependencies from it")
    }
    for url in manifests {
      edits[url] = try listing(in: text(of: url))
    }
    // A stateless fake is stored nowhere: the world's struct does not change.
    if kind == .service, link == .fake { return edits }
    let structs = files(holding: storageMarker).filter { !$0.lastPathComponent.hasSuffix("Package.swift") }
    guard let worldFile = structs.first, structs.count == 1 else {
      throw LinkGenError(
        structs.isEmpty
          ? "no Swift file has a '\(storageMarker)' line: put it last in the stored properties of struct \(world.name)"
          : "'\(storageMarker)' is in more than one file: \(structs.map(\.lastPathComponent).joined(separator: ", "))")
    }
    let templates = DomainTemplates(name: domain, kind: kind)
    let declaration: [String] =
      kind == .state
      ? ["/// The \(domain) slice.", "public var \(templates.property) = \(domain)State()"]
      : [
        "/// The \(domain) service's stateful implementation, kept in the world.",
        "public var live\(domain) = Live\(domain)()",
      ]
    edits[worldFile] = try inserting(declaration, before: storageMarker, in: text(of: worldFile), importing: domain)
    return edits
  }

  /// A package manifest's text with the domain listed above the world's domains marker.
  func listing(in text: String) throws -> String {
    try inserting(["\"\(domain)\","], before: domainsMarker, in: text, importing: nil)
  }

  /// `text` with `block` above the marker line, at its indent; and `import module` after the last import.
  private func inserting(_ block: [String], before marker: String, in text: String, importing module: String?) throws
    -> String
  {
    let newline = text.contains("\r\n") ? "\r\n" : "\n"
    var lines = text.components(separatedBy: newline)
    guard let index = lines.firstIndex(where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix(marker) }) else {
      throw LinkGenError("no '\(marker)' line to add above")
    }
    let indent = String(lines[index].prefix { $0 == " " })
    lines.insert(contentsOf: block.map { indent + $0 }, at: index)
    if let module, !lines.contains("import \(module)") {
      let imports = lines.indices.filter { lines[$0].hasPrefix("import ") }
      if let first = imports.first, let last = imports.last, imports.count == last - first + 1 {
        // One block of imports: keep it sorted, as `swift format` wants.
        lines.replaceSubrange(first...last, with: (lines[first...last] + ["import \(module)"]).sorted())
      } else {
        lines.insert("import \(module)", at: imports.last.map { $0 + 1 } ?? 0)
      }
    }
    return lines.joined(separator: newline)
  }
}
