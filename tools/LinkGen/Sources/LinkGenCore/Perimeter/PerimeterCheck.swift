import Foundation

/// The perimeter rule: only a world's own module may name the world.
///
/// Every `.swift` file under `Packages/` and `Generated/` is read as Swift
/// tokens: a world's name in code, an `import` of a composition root, or a
/// package `path:` that resolves to a composition root's package is a
/// violation outside that module's package (`Packages/<module>/`, or the
/// package whose `Sources/<module>` it is; for a test module, its own folder
/// `Packages/<package>/Tests/<module>/`) and its `Generated/<module>/`.
public struct PerimeterCheck {
  /// One place where the rule is broken.
  public struct Violation: Hashable, Sendable, CustomStringConvertible {
    /// Path relative to the root.
    public var file: String
    /// 1-based line.
    public var line: Int
    /// 1-based column.
    public var column: Int
    /// What is wrong.
    public var message: String

    public var description: String { "\(file):\(line):\(column): error: \(message)" }
  }

  /// The folders scanned, relative to the root.
  public static let scannedFolders = ["Packages", "Generated"]

  let root: URL
  /// The walk of the tree the files are found in.
  let scan: RepositoryScan
  let worlds: [World]
  /// Texts already in memory, by relative path, known to be the files' bytes
  /// (`check` passes the generated files it has just found up to date): read
  /// from here instead of the disk.
  var knownTexts: [String: String] = [:]
  /// Modules that are composition roots: they host a world and are not a
  /// domain's own module. A domain module may host a world of its own (the
  /// journal's environment), and depending on that domain is fine.
  let compositionRoots: Set<String>

  /// The package folder under `Packages/` of each world's module: its own
  /// (`Packages/KioskApp`), or the package whose `Sources/` holds it (the
  /// scenario world's `KioskFeatures` is in `Packages/KioskApp/Sources/`).
  let packages: [String: String]
  /// The folder of each world's module that is a test module
  /// (`Packages/Loans/Tests/LoansTests`): a test world may be named there, and
  /// only there, not in the package's sources.
  let testFolders: [String: String]

  /// A check of the tree under `root` for the worlds of a manifest whose
  /// domains are `domainModules`; `scan`, when given, is a walk of the tree made just before.
  public init(root: URL, worlds: [World], domainModules: Set<String> = [], scan: RepositoryScan? = nil) {
    self.root = root
    self.scan = scan ?? RepositoryScan(root: root)
    self.worlds = worlds
    compositionRoots = Set(worlds.map(\.module)).subtracting(domainModules)
    // One listing of each package's Sources/, whatever the number of worlds.
    let layout = SourceModules(root: root)
    let wanted = Set(worlds.map(\.module))
    var packages = Dictionary(uniqueKeysWithValues: wanted.intersection(layout.packages).map { ($0, $0) })
    var testFolders: [String: String] = [:]
    for module in layout.modules where wanted.contains(module.name) && packages[module.name] == nil {
      if module.isTest {
        testFolders[module.name] = testFolders[module.name] ?? module.folder
      } else {
        packages[module.name] = module.package
      }
    }
    self.packages = packages
    self.testFolders = testFolders.filter { packages[$0.key] == nil }
  }

  /// Every violation, sorted by file and line, each reported once.
  ///
  /// Each file is read and tokenized once, whatever the number of worlds: a
  /// world's name counts where it is code (not in a comment or a string); an
  /// `import` of a composition root counts outside that root; and a package
  /// manifest's `path:` counts when it resolves to a composition root's package.
  public func violations() -> [Violation] {
    var found: Set<Violation> = []
    let worldsByName = Dictionary(worlds.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    for folder in Self.scannedFolders {
      for file in swiftFiles(under: folder) {
        guard
          let text = knownTexts[file] ?? (try? String(contentsOf: root.appendingPathComponent(file), encoding: .utf8))
        else { continue }
        let tokens = SwiftTokens(text)
        for token in tokens.tokens where token.kind == .identifier {
          guard let world = worldsByName[token.text], !isInside(file, module: world.module) else { continue }
          found.insert(
            Violation(
              file: file, line: token.line, column: token.column,
              message:
                "'\(world.name)' is named outside its composition root '\(world.module)'; depend on capabilities instead"
            ))
        }
        for module in tokens.imports where compositionRoots.contains(module.text) {
          guard !isInside(file, module: module.text) else { continue }
          found.insert(
            Violation(
              file: file, line: module.line, column: module.column,
              message: "a domain imports the composition root '\(module.text)'; depend on capabilities instead"))
        }
        guard file.hasSuffix("/Package.swift") else { continue }
        let directory = root.appendingPathComponent(file).deletingLastPathComponent()
        let repository = root.standardizedFileURL.resolvingSymlinksInPath().path
        for path in tokens.pathArguments {
          let url =
            path.text.hasPrefix("/")
            ? URL(fileURLWithPath: path.text) : directory.appendingPathComponent(path.text)
          let target = url.standardizedFileURL.resolvingSymlinksInPath().path
          if target == repository {
            found.insert(
              Violation(
                file: file, line: path.line, column: path.column,
                message: "a domain package depends on the repository's root package, which holds every composition root"
              ))
            continue
          }
          for module in compositionRoots.sorted() where !isInside(file, module: module) {
            // A composition root's package: under Packages/, or a folder of its own (Benchmarks).
            let packages = ["Packages/\(packages[module] ?? module)", module].map {
              root.appendingPathComponent($0).standardizedFileURL.resolvingSymlinksInPath().path
            }
            guard packages.contains(target) else { continue }
            found.insert(
              Violation(
                file: file, line: path.line, column: path.column,
                message: "a domain package depends on the composition root '\(module)'"))
          }
        }
      }
    }
    return found.sorted { ($0.file, $0.line, $0.column) < ($1.file, $1.line, $1.column) }
  }

  /// Whether `file` belongs to `module`: its generated code, or the package that holds it.
  private func isInside(_ file: String, module: String) -> Bool {
    if file.hasPrefix("Generated/\(module)/") { return true }
    if let folder = testFolders[module] { return file.hasPrefix(folder + "/") }
    return file.hasPrefix("Packages/\(packages[module] ?? module)/")
  }

  /// `.swift` files below `folder`, not following symbolic links (a package's
  /// `Generated` link is scanned once, under `Generated/`); a linked file is
  /// compiled like any other, so it is read through the link.
  private func swiftFiles(under folder: String) -> [String] { scan.swiftFiles(under: folder) }
}
