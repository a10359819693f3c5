import Foundation

/// Holds `features:` to the files on disk: each scenario file exists, each
/// fixture has its recording, and each recording is some feature's fixture.
public struct FeatureCheck {
  /// Where recordings live, relative to the root: `<feature>/<fixture>.json` under it.
  public static let recordingsFolder = "Tests/Recordings"

  let root: URL
  let manifest: Manifest

  /// A check of `manifest`'s features against the tree at `root`.
  public init(root: URL, manifest: Manifest) {
    self.root = root
    self.manifest = manifest
  }

  /// Every mismatch, located in the manifest.
  public func diagnostics() -> [Diagnostic] {
    var found: [Diagnostic] = []
    let manager = FileManager.default
    let recordings = root.appendingPathComponent(Self.recordingsFolder)
    for feature in manifest.features {
      if !manager.fileExists(atPath: root.appendingPathComponent(feature.scenario).path) {
        found.append(
          Diagnostic(
            "scenario file '\(feature.scenario)' of feature '\(feature.name)' does not exist",
            at: feature.locations.scenario))
      }
      for (fixture, location) in zip(feature.fixtures, feature.locations.fixtures) {
        let path = "\(Self.recordingsFolder)/\(feature.name)/\(fixture).json"
        if !manager.fileExists(atPath: root.appendingPathComponent(path).path) {
          found.append(
            Diagnostic(
              "fixture '\(fixture)' of feature '\(feature.name)' has no recording at \(path); run 'make record'",
              at: location))
        }
      }
      let folder = recordings.appendingPathComponent(feature.name)
      let listed = Set(feature.fixtures)
      for file in ((try? manager.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
      where file.hasSuffix(".json") && !listed.contains(String(file.dropLast(5))) {
        found.append(
          Diagnostic(
            "recording \(Self.recordingsFolder)/\(feature.name)/\(file) is no fixture of feature '\(feature.name)'; "
              + "add '\(file.dropLast(5))' to its fixtures, or delete the file", at: feature.locations.fixturesKey))
      }
    }
    let features = Set(manifest.features.map(\.name))
    for folder in ((try? manager.contentsOfDirectory(atPath: recordings.path)) ?? []).sorted()
    where !features.contains(folder) && !folder.hasPrefix(".") {
      found.append(
        Diagnostic(
          "recordings in \(Self.recordingsFolder)/\(folder)/ belong to no feature; list '\(folder)' under 'features'",
          at: manifest.featuresLocation ?? SourceLocation(line: 1, column: 1)))
    }
    return found
  }
}
