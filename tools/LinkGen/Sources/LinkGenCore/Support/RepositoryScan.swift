import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// One walk of a repository: everything a linkgen command needs to know about
/// the tree, read once with `readdir` and shared by every check.
///
/// `FileManager`'s enumerator built a URL and a dictionary of attributes for
/// each entry, and each check walked again: that was most of a no-op
/// `generate` on a large manifest. Folders named `.build` or `.git` are never
/// entered, at any depth; symbolic links are recorded, never followed.
public struct RepositoryScan: Sendable {
  /// What an entry is, from `d_type` (or `lstat` when the file system leaves it unknown).
  public enum Kind: Sendable { case file, folder, link, other }

  /// A symbolic link outside `Generated/`.
  public struct Link: Sendable {
    /// Its path, relative to the root.
    public var path: String
    /// What it points to, as written in the link.
    public var destination: String
  }

  /// The root the paths are relative to.
  public let root: String
  /// Every entry under the root, by relative path (`Packages/Menu/Package.swift`).
  public private(set) var kinds: [String: Kind] = [:]
  /// Regular files and symbolic links under `Generated/`, sorted.
  public private(set) var generatedFiles: [String] = []
  /// Folders under `Generated/` (not `Generated/` itself), sorted.
  public private(set) var generatedFolders: [String] = []
  /// Symbolic links outside `Generated/`, sorted by path.
  public private(set) var links: [Link] = []
  /// Regular `.swift` files outside `Generated/`, sorted.
  public private(set) var swiftFiles: [String] = []

  /// Walks the tree under `root`, or only its folder `within` (relative) when given.
  public init(root: URL, within: String? = nil) { self.init(root: root.path, within: within) }

  /// Walks the tree under `root`, a path, or only its folder `within` (relative) when given.
  public init(root: String, within: String? = nil) {
    self.root = root.hasSuffix("/") && root.count > 1 ? String(root.dropLast()) : root
    walk(folder: within ?? "")
    generatedFiles.sort()
    generatedFolders.sort()
    links.sort { $0.path < $1.path }
    swiftFiles.sort()
  }

  /// The `.swift` files of the tree below `folder` (relative), in `Generated/`
  /// or not, regular or linked to a file (a linked folder is not followed: it is
  /// scanned where it lives), sorted.
  public func swiftFiles(under folder: String) -> [String] {
    let prefix = folder + "/"
    if folder == Generator.outputFolder {
      return generatedFiles.filter { $0.hasSuffix(".swift") && isFileOrLinkToFile($0) }
    }
    var found = swiftFiles.filter { $0.hasPrefix(prefix) }
    for link in links
    where link.path.hasPrefix(prefix) && link.path.hasSuffix(".swift") && isFileOrLinkToFile(link.path) {
      found.append(link.path)
    }
    return found.sorted()
  }

  /// Whether `path` (relative) is a regular file, or a link whose target is one.
  func isFileOrLinkToFile(_ path: String) -> Bool {
    switch kinds[path] {
    case .file: return true
    case .link:
      var status = stat()
      return stat(absolute(path), &status) == 0 && (status.st_mode & S_IFMT) != S_IFDIR
    default: return false
    }
  }

  /// The absolute path of `relative`.
  func absolute(_ relative: String) -> String { relative.isEmpty ? root : "\(root)/\(relative)" }

  private mutating func walk(folder: String) {
    guard let directory = opendir(absolute(folder)) else { return }
    var entries: [(name: String, type: UInt8)] = []
    while let entry = readdir(directory) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
      }
      if name == "." || name == ".." { continue }
      entries.append((name, entry.pointee.d_type))
    }
    closedir(directory)
    let inGenerated = folder == Generator.outputFolder || folder.hasPrefix(Generator.outputFolder + "/")
    for (name, type) in entries {
      let path = folder.isEmpty ? name : "\(folder)/\(name)"
      let kind = Self.kind(type: type, path: absolute(path))
      kinds[path] = kind
      switch kind {
      case .folder:
        guard name != ".build", name != ".git" else { continue }
        if inGenerated { generatedFolders.append(path) }
        walk(folder: path)
      case .file:
        if inGenerated {
          generatedFiles.append(path)
        } else if name.hasSuffix(".swift") {
          swiftFiles.append(path)
        }
      case .link:
        if inGenerated {
          generatedFiles.append(path)
        } else if let destination = Self.destination(of: absolute(path)) {
          links.append(Link(path: path, destination: destination))
        }
      case .other: continue
      }
    }
  }

  private static func kind(type: UInt8, path: String) -> Kind {
    switch Int32(type) {
    case Int32(DT_DIR): return .folder
    case Int32(DT_REG): return .file
    case Int32(DT_LNK): return .link
    case Int32(DT_UNKNOWN):
      var status = stat()
      guard lstat(path, &status) == 0 else { return .other }
      switch status.st_mode & S_IFMT {
      case S_IFDIR: return .folder
      case S_IFREG: return .file
      case S_IFLNK: return .link
      default: return .other
      }
    default: return .other
    }
  }

  private static func destination(of path: String) -> String? {
    var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
    let count = readlink(path, &buffer, buffer.count - 1)
    guard count >= 0 else { return nil }
    return String(decoding: buffer[..<count], as: UTF8.self)
  }
}
