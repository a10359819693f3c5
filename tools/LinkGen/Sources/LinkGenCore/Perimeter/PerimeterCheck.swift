import Foundation

/// The perimeter rule: only a world's own module may name the world.
///
/// Every `.swift` file under `Packages/` and `Generated/` is scanned for each
/// world's name as a whole word; files of the world's module
/// (`Packages/<module>/`, `Generated/<module>/`) are allowed to name it. Domain
/// manifests must not depend on a world's package either.
public struct PerimeterCheck {
  /// One place where the rule is broken.
  public struct Violation: Equatable, Sendable, CustomStringConvertible {
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
  let worlds: [World]
  /// Modules that are composition roots: they host a world and are not a
  /// domain's own module. A domain module may host a world of its own (the
  /// journal's environment), and depending on that domain is fine.
  let compositionRoots: Set<String>

  /// A check of the tree under `root` for the worlds of a manifest whose
  /// domains are `domainModules`.
  public init(root: URL, worlds: [World], domainModules: Set<String> = []) {
    self.root = root
    self.worlds = worlds
    compositionRoots = Set(worlds.map(\.module)).subtracting(domainModules)
  }

  /// Every violation, sorted by file and line.
  public func violations() -> [Violation] {
    var found: [Violation] = []
    for folder in Self.scannedFolders {
      for file in swiftFiles(under: folder) {
        guard let text = try? String(contentsOf: root.appendingPathComponent(file), encoding: .utf8) else { continue }
        for world in worlds where !isInside(file, module: world.module) {
          for (line, column) in occurrences(of: world.name, in: text) {
            found.append(
              Violation(
                file: file, line: line, column: column,
                message:
                  "'\(world.name)' is named outside its composition root '\(world.module)'; depend on capabilities instead"
              ))
          }
        }
        guard file.hasSuffix("/Package.swift") else { continue }
        for module in compositionRoots.sorted() where !isInside(file, module: module) {
          for (line, column) in occurrences(of: "../\(module)", in: text, wholeWord: false) {
            found.append(
              Violation(
                file: file, line: line, column: column,
                message: "a domain package depends on the composition root '\(module)'"))
          }
        }
      }
    }
    return found.sorted { ($0.file, $0.line, $0.column) < ($1.file, $1.line, $1.column) }
  }

  private func isInside(_ file: String, module: String) -> Bool {
    Self.scannedFolders.contains { file.hasPrefix("\($0)/\(module)/") }
  }

  /// `.swift` files below `folder`, not following symbolic links (a package's
  /// `Generated` link is scanned once, under `Generated/`).
  private func swiftFiles(under folder: String) -> [String] {
    let base = root.appendingPathComponent(folder)
    guard let enumerator = FileManager.default.enumerator(atPath: base.path) else { return [] }
    var files: [String] = []
    while let relative = enumerator.nextObject() as? String {
      let type = enumerator.fileAttributes?[.type] as? FileAttributeType
      if type == .typeSymbolicLink || relative.hasPrefix(".build") || relative.contains("/.build") {
        enumerator.skipDescendants()
        continue
      }
      if type == .typeRegular, relative.hasSuffix(".swift") { files.append("\(folder)/\(relative)") }
    }
    return files
  }

  /// 1-based (line, column) of each occurrence of `word` in `text`.
  private func occurrences(of word: String, in text: String, wholeWord: Bool = true) -> [(Int, Int)] {
    var result: [(Int, Int)] = []
    let isIdentifier: (Character?) -> Bool = { $0.map { $0.isLetter || $0.isNumber || $0 == "_" } ?? false }
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      var searchStart = line.startIndex
      while let range = line[searchStart...].range(of: word) {
        let before = range.lowerBound == line.startIndex ? nil : line[line.index(before: range.lowerBound)]
        let after = range.upperBound == line.endIndex ? nil : line[range.upperBound]
        if !wholeWord || (!isIdentifier(before) && !isIdentifier(after)) {
          result.append((index + 1, line.distance(from: line.startIndex, to: range.lowerBound) + 1))
        }
        searchStart = range.upperBound
      }
    }
    return result
  }
}
