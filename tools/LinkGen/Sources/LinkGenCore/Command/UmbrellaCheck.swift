import Foundation

/// One source of truth per domain package's dependencies, checked: the root
/// `Package.swift` lists each domain as `DomainPackage(name: "N", uses: [...])`
/// (with `testing: true` when it has a generated `NTesting` library), and
/// `Packages/N/Package.swift` declares the same dependencies on its target `N`
/// (and the target `NTesting`). The umbrella is what `swift test` at the root
/// builds; the package's own manifest is what `make build PKG=N` and a user of
/// the package build. `new-domain --uses` writes both; this catches a hand
/// edit to one of them. An umbrella with no `DomainPackage` list is not checked.
struct UmbrellaCheck {
  let root: URL
  /// The manifest's domains: each with a package of its own must be listed.
  var domains: [String] = []

  /// A domain as the umbrella lists it.
  struct Listing {
    var name: String
    /// The domains it uses, in the order written.
    var uses: [String]
    var testing: Bool
    var line: Int
    var column: Int
  }

  /// Every disagreement, as `file:line:column: error: …` lines (paths relative to the root).
  func problems() -> [String] {
    guard let umbrella = try? String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8) else {
      return []
    }
    var problems: [String] = []
    let listings = Self.listings(in: umbrella)
    if let first = listings.first {
      let listed = Set(listings.map(\.name))
      for domain in domains where !listed.contains(domain) {
        let path = "Packages/\(domain)/Package.swift"
        guard FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path) else { continue }
        problems.append(
          "Package.swift:\(first.line):\(first.column): error: domain '\(domain)' has its own \(path), but the "
            + "umbrella's DomainPackage listing leaves it out, so the umbrella does not build it; list it as "
            + "DomainPackage(name: \"\(domain)\", uses: [...])")
      }
    }
    for listing in listings {
      let at = "Package.swift:\(listing.line):\(listing.column)"
      let path = "Packages/\(listing.name)/Package.swift"
      guard let text = try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8) else {
        problems.append("\(at): error: domain '\(listing.name)' has no \(path)")
        continue
      }
      let targets = Self.targets(in: text)
      guard let own = targets.first(where: { $0.name == listing.name }) else {
        problems.append("\(path):1:1: error: no target named '\(listing.name)' (the umbrella lists it at \(at))")
        continue
      }
      if own.dependencies != Set(listing.uses) {
        problems.append(
          "\(path):\(own.line):\(own.column): error: target '\(listing.name)' depends on \(Self.list(own.dependencies)), "
            + "but the umbrella \(at) says it uses \(Self.list(Set(listing.uses))); make the two lists name the same modules"
        )
      }
      let testing = "\(listing.name)Testing"
      let hasTesting = targets.contains { $0.name == testing }
      if hasTesting != listing.testing {
        problems.append(
          hasTesting
            ? "\(at): error: \(path) has a '\(testing)' target, but the umbrella does not build it; "
              + "list '\(listing.name)' with 'testing: true'"
            : "\(at): error: the umbrella lists '\(listing.name)' with 'testing: true', but \(path) has no "
              + "'\(testing)' target")
      }
    }
    return problems
  }

  /// `[A, B]`, sorted.
  private static func list(_ names: Set<String>) -> String { "[\(names.sorted().joined(separator: ", "))]" }

  /// Each `DomainPackage(name: "N", uses: ["A"], testing: true)` of the umbrella.
  static func listings(in text: String) -> [Listing] {
    let tokens = SwiftTokens(text).tokens
    var listings: [Listing] = []
    var index = 0
    while index < tokens.count {
      defer { index += 1 }
      // `struct DomainPackage {` declares it; a listing is the name followed by `name: "N"`.
      guard tokens[index].kind == .identifier, tokens[index].text == "DomainPackage", index + 2 < tokens.count,
        tokens[index + 1].text == "name", tokens[index + 1].kind == .identifier, tokens[index + 2].kind == .string
      else { continue }
      var listing = Listing(
        name: tokens[index + 2].text, uses: [], testing: false, line: tokens[index].line, column: tokens[index].column)
      var next = index + 3
      if next < tokens.count, tokens[next].kind == .identifier, tokens[next].text == "uses" {
        next += 1
        while next < tokens.count, tokens[next].kind == .string {
          listing.uses.append(tokens[next].text)
          next += 1
        }
      }
      if next + 1 < tokens.count, tokens[next].text == "testing", tokens[next].kind == .identifier {
        listing.testing = tokens[next + 1].text == "true"
      }
      listings.append(listing)
      index = next - 1
    }
    return listings
  }

  /// A target of a package manifest: its name, where it is, and the modules it depends on.
  struct Target {
    var name: String
    var dependencies: Set<String>
    var line: Int
    var column: Int
  }

  /// Each `.target(name: "N", dependencies: [...])` (of any kind) of a package manifest;
  /// a `.target(name:)` inside another's arguments is a dependency, not a declaration.
  static func targets(in text: String) -> [Target] {
    let declaration =
      /\.(?:target|testTarget|executableTarget|systemLibrary|plugin|macro|binaryTarget)\(\s*name:\s*"(\w+)"/
    var targets: [Target] = []
    var inside = text.startIndex
    for match in text.matches(of: declaration) where match.range.lowerBound >= inside {
      // Its arguments run to the parenthesis that closes them.
      guard let open = text[match.range].firstIndex(of: "(") else { continue }
      let close = SourceText.closing(of: open, in: text)
      inside = close
      let arguments = text[match.range.upperBound..<close]
      var dependencies: Set<String> = []
      if let list = arguments.firstMatch(of: /dependencies:\s*\[/) {
        let end = SourceText.closing(of: arguments.index(before: list.range.upperBound), in: text)
        // `.product(name: "A", package: "A")`: the product's name, not its package's.
        let listed = text[list.range.upperBound..<end].replacing(/package:\s*"\w+"/, with: "")
        dependencies = Set(listed.matches(of: /"(\w+)"/).map { String($0.output.1) })
      }
      let (line, column) = SourceText.position(of: text.index(after: match.range.lowerBound), in: text)
      targets.append(Target(name: String(match.output.1), dependencies: dependencies, line: line, column: column))
    }
    return targets
  }
}
