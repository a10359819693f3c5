import Foundation

/// Writes scaffolded text files and symbolic links under a folder, making the
/// folders they need: what `new-domain` writes into a package and `init` into a
/// repository, in one sorted order.
enum ScaffoldFiles {
  /// Writes each `path → text` and each `path → destination` link, relative to `root`.
  static func write(_ files: [String: String], links: [String: String] = [:], under root: URL) throws {
    let manager = FileManager.default
    for (path, text) in files.sorted(by: { $0.key < $1.key }) {
      let url = root.appendingPathComponent(path)
      try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(text.utf8).write(to: url, options: .atomic)
    }
    for (path, destination) in links.sorted(by: { $0.key < $1.key }) {
      let url = root.appendingPathComponent(path)
      try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try manager.createSymbolicLink(atPath: url.path, withDestinationPath: destination)
    }
  }
}
