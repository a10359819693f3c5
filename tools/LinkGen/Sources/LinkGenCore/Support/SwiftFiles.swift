import Foundation

/// The Swift files a scaffolding command may read or edit, found the same way
/// by each: the tree under a root, `.build`, `.git` and `Generated/` aside.
enum SwiftFiles {
  /// The `.swift` files under `root`, `.build`, `.git` and `Generated/` aside, sorted.
  static func under(_ root: URL) -> [URL] {
    RepositoryScan(root: root).swiftFiles.map { root.appendingPathComponent($0) }
  }
}
