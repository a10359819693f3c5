import Foundation

/// The files under `Generated/` on disk, compared with what the manifest produces.
public struct GeneratedTree {
  /// The repository root that holds `Generated/`.
  public let root: URL

  /// Opens the tree under `root`.
  public init(root: URL) { self.root = root }

  /// How one file on disk differs from the plan.
  public enum Difference: Equatable, Sendable, CustomStringConvertible {
    /// The manifest produces it; the disk lacks it.
    case missing(String)
    /// Both have it, with different bytes.
    case stale(String)
    /// The disk has it; the manifest no longer produces it.
    case extra(String)

    /// The relative path.
    public var path: String {
      switch self {
      case .missing(let path), .stale(let path), .extra(let path): path
      }
    }

    public var description: String {
      switch self {
      case .missing(let path): "\(path) (missing)"
      case .stale(let path): "\(path) (out of date)"
      case .extra(let path): "\(path) (no longer generated)"
      }
    }
  }

  /// What `apply` did.
  public struct Summary: Equatable, Sendable {
    /// Files created or rewritten.
    public var written: [String] = []
    /// Files left alone because their bytes were already right.
    public var unchanged: [String] = []
    /// Files removed because the manifest no longer produces them.
    public var deleted: [String] = []
  }

  /// Relative paths of the files now under `Generated/`, sorted: regular files
  /// and symbolic links alike (a link there is compiled like a file, so one
  /// linkgen did not write is reported and removed like any other stray file).
  public func existingFiles() -> [String] {
    let folder = root.appendingPathComponent(Generator.outputFolder)
    guard let enumerator = FileManager.default.enumerator(atPath: folder.path) else { return [] }
    var paths: [String] = []
    while let relative = enumerator.nextObject() as? String {
      let type = enumerator.fileAttributes?[.type] as? FileAttributeType
      if type == .typeRegular || type == .typeSymbolicLink {
        paths.append("\(Generator.outputFolder)/\(relative)")
      }
    }
    return paths.sorted()
  }

  /// Every way the disk differs from `files`, sorted by path.
  public func differences(from files: [String: String]) -> [Difference] {
    var result: [Difference] = []
    for (path, contents) in files {
      let isLink = (try? FileManager.default.destinationOfSymbolicLink(atPath: url(path).path)) != nil
      guard !isLink, let bytes = FileSystem.contents(of: url(path).path) else {
        result.append(.missing(path))
        continue
      }
      if !bytes.elementsEqual(contents.utf8) { result.append(.stale(path)) }
    }
    for path in existingFiles() where files[path] == nil { result.append(.extra(path)) }
    return result.sorted { $0.path < $1.path }
  }

  /// Makes the disk match `files`: writes what differs (atomically, by rename),
  /// leaves identical files untouched so their mtimes stay, deletes the rest.
  public func apply(_ files: [String: String]) throws -> Summary {
    var summary = Summary()
    let differences = differences(from: files)
    let changed = Set(differences.map(\.path))
    var folders: Set<String> = []
    for path in files.keys.sorted() {
      guard changed.contains(path) else {
        summary.unchanged.append(path)
        continue
      }
      let target = url(path)
      // A link in a generated file's place is replaced by the file, not written through.
      if (try? FileManager.default.destinationOfSymbolicLink(atPath: target.path)) != nil {
        try FileManager.default.removeItem(at: target)
      }
      let folder = target.deletingLastPathComponent().path
      if folders.insert(folder).inserted {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
      }
      try FileSystem.replace(target.path, with: Array(files[path]!.utf8))
      summary.written.append(path)
    }
    for case .extra(let path) in differences {
      try FileManager.default.removeItem(at: url(path))
      summary.deleted.append(path)
    }
    try removeEmptyFolders()
    return summary
  }

  private func url(_ relative: String) -> URL { root.appendingPathComponent(relative) }

  /// A removed domain, or a stray nested folder, leaves no empty folder behind,
  /// at any depth (deepest first, so a parent emptied by its children goes too).
  private func removeEmptyFolders() throws {
    let folder = root.appendingPathComponent(Generator.outputFolder)
    let manager = FileManager.default
    guard let enumerator = manager.enumerator(atPath: folder.path) else { return }
    var folders: [String] = []
    while let relative = enumerator.nextObject() as? String {
      if enumerator.fileAttributes?[.type] as? FileAttributeType == .typeDirectory { folders.append(relative) }
    }
    for relative in folders.sorted(by: { $0.count > $1.count }) {
      let path = folder.appendingPathComponent(relative).path
      if (try? manager.contentsOfDirectory(atPath: path))?.isEmpty == true { try manager.removeItem(atPath: path) }
    }
  }
}
