import Foundation

/// `swift package dump-package`: a package manifest as JSON, what the access
/// map (its system libraries) and `new-domain` (its dependencies' modules) read.
enum PackageDump {
  /// The JSON of the manifest in `folder`, or nil when it has none or SwiftPM
  /// fails on it. Run with a scratch path of its own: the dump then waits for
  /// no build holding the folder's `.build` lock (the map's test runs inside
  /// one), and leaves nothing in the folder.
  static func json(of folder: URL) -> Data? {
    guard FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) else {
      return nil
    }
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("linkgen-dump-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: scratch) }
    guard
      let (status, output) = try? Toolchain.runForOutput(
        "swift", ["package", "--package-path", folder.path, "--scratch-path", scratch.path, "dump-package"]),
      status == 0
    else { return nil }
    return Data(output.utf8)
  }
}
