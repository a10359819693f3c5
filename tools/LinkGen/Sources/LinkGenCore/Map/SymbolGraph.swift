import Foundation

/// The part of a compiler symbol graph (`swift symbolgraph-extract`) the
/// access map reads: each symbol's path, kind, and the generic constraints it
/// carries, from its extension (`extension HasMutableTabs where Self: HasStock`)
/// and from its own generic signature (`func replay<W: HasMutableTabs>`).
struct SymbolGraph: Decodable {
  struct Module: Decodable {
    var name: String
  }

  struct Symbol: Decodable {
    struct Kind: Decodable {
      var identifier: String
    }
    struct Constraint: Decodable {
      var kind: String
      var lhs: String
      var rhs: String
    }
    struct Extension: Decodable {
      var constraints: [Constraint]?
    }
    struct Generics: Decodable {
      var constraints: [Constraint]?
    }

    var kind: Kind
    var pathComponents: [String]
    var swiftExtension: Extension?
    var swiftGenerics: Generics?
  }

  var module: Module
  var symbols: [Symbol]
}

/// Runs `swift symbolgraph-extract` for modules already built in a folder of `.swiftmodule`s.
struct SymbolGraphExtractor {
  /// The folder of built modules (`.build/debug/Modules`).
  let modulesFolder: URL
  /// The module maps SwiftPM wrote for the C targets it built beside the
  /// modules (`.build/debug/Name.build/module.modulemap`): a Swift module that
  /// imports a C target is read only when the C module can be found too.
  let cModuleMaps: [URL]
  /// Clang flags that find the root package's system libraries (their module
  /// maps and header folders): a Swift module that imports one, even through
  /// another module, is read only with them.
  let systemLibraryFlags: [String]
  /// The host's target triple, or why it could not be had: found once for
  /// every module extracted, and a failure is each module's.
  let target: Result<String, any Error>

  /// An extractor for the modules in `modulesFolder`, built from the package at `root`.
  init(modulesFolder: URL, root: URL) {
    systemLibraryFlags = SystemLibraries(root: root).clangFlags()
    self.modulesFolder = modulesFolder
    let buildFolder = modulesFolder.deletingLastPathComponent()
    let folders = (try? FileManager.default.contentsOfDirectory(atPath: buildFolder.path)) ?? []
    cModuleMaps = folders.filter { $0.hasSuffix(".build") }.sorted().map {
      buildFolder.appendingPathComponent($0).appendingPathComponent("module.modulemap")
    }
    .filter { FileManager.default.fileExists(atPath: $0.path) }
    target = Result { try Self.targetTriple() }
  }

  /// Whether `module` is built in the folder.
  func isBuilt(_ module: String) -> Bool {
    FileManager.default.fileExists(atPath: modulesFolder.appendingPathComponent("\(module).swiftmodule").path)
  }

  /// Throws, saying which build to run, when `module` is not built in the folder.
  func requireBuilt(_ module: String) throws {
    guard isBuilt(module) else {
      throw LinkGenError("'\(module)' is not built in '\(modulesFolder.path)': build first ('swift build')")
    }
  }

  /// Writes the symbol graphs of `module` (`Module.symbols.json`, and
  /// `Module@Other.symbols.json` for its extensions of other modules' types)
  /// into `output`, down to `minimumAccess` (`public`, `internal`). The one
  /// place that knows how to run `symbolgraph-extract` on this build: `map`
  /// and `make docs` (through `linkgen symbol-graphs`) both come here.
  func extract(_ module: String, into output: URL, minimumAccess: String) throws {
    try requireBuilt(module)
    let (status, text) = try Toolchain.run(
      "swift",
      [
        "symbolgraph-extract", "-module-name", module, "-target", try target.get(), "-I", modulesFolder.path,
        "-output-dir", output.path, "-minimum-access-level", minimumAccess, "-skip-synthesized-members",
      ] + cModuleMaps.flatMap { ["-Xcc", "-fmodule-map-file=\($0.path)"] }
        + systemLibraryFlags.flatMap { ["-Xcc", $0] })
    guard status == 0 else {
      let reason = text.split(separator: "\n").first { $0.contains("error:") }.map {
        String($0[$0.range(of: "error:")!.upperBound...]).trimmingCharacters(in: .whitespaces)
      }
      throw LinkGenError(reason ?? "swift symbolgraph-extract failed")
    }
  }

  /// The symbol graph of `module`, internal symbols included; nil when the
  /// module is not in the folder.
  func graph(of module: String) throws -> SymbolGraph? {
    guard isBuilt(module) else { return nil }
    let output = FileManager.default.temporaryDirectory.appendingPathComponent("linkgen-map-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: output) }
    try extract(module, into: output, minimumAccess: "internal")
    // `Module.symbols.json`, plus `Module@Other.symbols.json` for its extensions of
    // other modules' types (`extension HasMutableTabs` declared in KioskApp).
    var graph: SymbolGraph?
    for name in try FileManager.default.contentsOfDirectory(atPath: output.path).sorted()
    where name == "\(module).symbols.json" || (name.hasPrefix("\(module)@") && name.hasSuffix(".symbols.json")) {
      let part = try JSONDecoder().decode(SymbolGraph.self, from: Data(contentsOf: output.appendingPathComponent(name)))
      if graph == nil { graph = SymbolGraph(module: SymbolGraph.Module(name: module), symbols: []) }
      graph?.symbols += part.symbols
    }
    return graph
  }

  /// The host's target triple, from `swiftc -print-target-info`.
  static func targetTriple() throws -> String {
    struct Info: Decodable {
      struct Target: Decodable { var triple: String }
      var target: Target
    }
    let (status, text) = try Toolchain.run("swiftc", ["-print-target-info"])
    guard status == 0, let info = try? JSONDecoder().decode(Info.self, from: Data(text.utf8)) else {
      throw LinkGenError("'swiftc -print-target-info' failed: \(text.prefix(200))")
    }
    return info.target.triple
  }
}
