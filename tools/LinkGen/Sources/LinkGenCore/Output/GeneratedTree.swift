import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The files under `Generated/` on disk, compared with what the manifest produces.
public struct GeneratedTree {
  /// The repository root that holds `Generated/`.
  public let root: URL
  /// A walk of the tree already made by the caller (a command walks once and
  /// shares it); nil walks `Generated/` when asked.
  let scan: RepositoryScan?

  /// Opens the tree under `root`; `scan`, when given, is a walk of it made just before.
  public init(root: URL, scan: RepositoryScan? = nil) {
    self.root = root
    self.scan = scan
  }

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
  public func existingFiles() -> [String] { currentScan().generatedFiles }

  /// Every way the disk differs from `files`, sorted by path.
  public func differences(from files: [String: String]) -> [Difference] {
    differences(from: files, in: currentScan())
  }

  /// Makes the disk match `files`: writes what differs (atomically, by rename),
  /// leaves identical files untouched so their mtimes stay, deletes the rest.
  public func apply(_ files: [String: String]) throws -> Summary {
    var summary = Summary()
    let scan = currentScan()
    let differences = differences(from: files, in: scan)
    let changed = Set(differences.map(\.path))
    var folders: Set<String> = []
    for path in files.keys.sorted() {
      guard changed.contains(path) else {
        summary.unchanged.append(path)
        continue
      }
      let target = scan.absolute(path)
      // A link in a generated file's place is replaced by the file, not written through.
      if scan.kinds[path] == .link { try remove(path, in: scan) }
      let folder = String(path[..<path.lastIndex(of: "/")!])
      if scan.kinds[folder] != .folder, folders.insert(folder).inserted {
        try FileManager.default.createDirectory(atPath: scan.absolute(folder), withIntermediateDirectories: true)
      }
      try FileSystem.replace(target, with: Array(files[path]!.utf8))
      summary.written.append(path)
    }
    for case .extra(let path) in differences {
      try remove(path, in: scan)
      summary.deleted.append(path)
    }
    removeEmptyFolders(of: scan)
    return summary
  }

  private func currentScan() -> RepositoryScan {
    scan ?? RepositoryScan(root: root, within: Generator.outputFolder)
  }

  private func differences(from files: [String: String], in scan: RepositoryScan) -> [Difference] {
    var result: [Difference] = []
    for (path, contents) in files {
      guard scan.kinds[path] == .file, let bytes = FileSystem.contents(of: scan.absolute(path)) else {
        result.append(.missing(path))
        continue
      }
      if !FileSystem.same(bytes, contents) { result.append(.stale(path)) }
    }
    for path in scan.generatedFiles where files[path] == nil { result.append(.extra(path)) }
    return result.sorted { $0.path < $1.path }
  }

  private func remove(_ path: String, in scan: RepositoryScan) throws {
    guard unlink(scan.absolute(path)) == 0 || errno == ENOENT else {
      throw LinkGenError("cannot remove '\(path)': \(String(cString: strerror(errno)))")
    }
  }

  /// A removed domain, or a stray nested folder, leaves no empty folder behind,
  /// at any depth (deepest first, so a parent emptied by its children goes too).
  /// `rmdir` removes only an empty folder, so a folder still holding anything stays.
  private func removeEmptyFolders(of scan: RepositoryScan) {
    let depth = { (path: String) in path.utf8.count { $0 == UInt8(ascii: "/") } }
    for folder in scan.generatedFolders.sorted(by: { depth($0) > depth($1) }) {
      rmdir(scan.absolute(folder))
    }
  }
}
