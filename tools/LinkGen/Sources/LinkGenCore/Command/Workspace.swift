import Foundation

/// Where linkgen reads its manifest and writes `Generated/`.
public struct Workspace: Sendable {
  /// The manifest file.
  public var manifest: URL
  /// The repository root holding `Generated/` and `Packages/`.
  public var root: URL
  /// The manifest path as the user wrote it, for diagnostics.
  public var displayPath: String

  /// A workspace; `root` defaults to the manifest's folder.
  public init(manifestPath: String, root: String?) {
    manifest = URL(fileURLWithPath: manifestPath)
    self.root = root.map { URL(fileURLWithPath: $0) } ?? manifest.deletingLastPathComponent()
    displayPath = manifestPath
  }

  /// The manifest's text; a one-line error when it cannot be read.
  public func readManifestText() throws -> String {
    guard let data = FileManager.default.contents(atPath: manifest.path) else {
      throw LinkGenError("cannot read manifest '\(displayPath)'")
    }
    guard let text = String(data: data, encoding: .utf8) else {
      throw LinkGenError("manifest '\(displayPath)' is not UTF-8 text")
    }
    return text
  }

  /// The validated manifest.
  public func loadManifest() throws -> Manifest {
    try ManifestDecoder.decode(readManifestText())
  }
}
