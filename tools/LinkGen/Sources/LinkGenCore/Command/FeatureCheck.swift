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
    var scenarioOwners: [String: String] = [:]
    for feature in manifest.features.sorted(by: { $0.locations.name < $1.locations.name }) {
      var isFolder: ObjCBool = false
      let exists = manager.fileExists(
        atPath: root.appendingPathComponent(feature.scenario).path, isDirectory: &isFolder)
      if !exists || isFolder.boolValue {
        found.append(
          Diagnostic(
            "scenario file '\(feature.scenario)' of feature '\(feature.name)' "
              + (exists ? "is a folder, not a file" : "does not exist"),
            at: feature.locations.scenario))
      } else if let problem = Self.missingTestingImport(in: root.appendingPathComponent(feature.scenario)) {
        // Without the import, each macro use is its own compiler error; one line here says why.
        found.append(Diagnostic("scenario file '\(feature.scenario)' \(problem)", at: feature.locations.scenario))
      }
      if let owner = scenarioOwners[feature.scenario] {
        found.append(
          Diagnostic(
            "feature '\(feature.name)' shares its scenario file with feature '\(owner)'; each feature has its own",
            at: feature.locations.scenario))
      }
      scenarioOwners[feature.scenario] = scenarioOwners[feature.scenario] ?? feature.name
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
      for file in ((try? manager.contentsOfDirectory(atPath: folder.path)) ?? []).sorted() where !file.hasPrefix(".") {
        let path = "\(Self.recordingsFolder)/\(feature.name)/\(file)"
        let name = String(file.dropLast(5))
        if !file.hasSuffix(".json") || !NodeReader.isFixtureName(name) {
          found.append(
            Diagnostic(
              "\(path) is not a recording: only <fixture>.json files, named as fixtures are, belong in a feature's folder",
              at: feature.locations.fixturesKey))
        } else if !listed.contains(name) {
          found.append(
            Diagnostic(
              "recording \(path) is no fixture of feature '\(feature.name)'; add '\(name)' to its fixtures, "
                + "or delete the file", at: feature.locations.fixturesKey))
        }
      }
    }
    let features = Set(manifest.features.map(\.name))
    let featuresLocation = manifest.featuresLocation ?? SourceLocation(line: 1, column: 1)
    for entry in ((try? manager.contentsOfDirectory(atPath: recordings.path)) ?? []).sorted()
    where !features.contains(entry) && !entry.hasPrefix(".") {
      var isFolder: ObjCBool = false
      _ = manager.fileExists(atPath: recordings.appendingPathComponent(entry).path, isDirectory: &isFolder)
      let contents = (try? manager.contentsOfDirectory(atPath: recordings.appendingPathComponent(entry).path)) ?? []
      if !isFolder.boolValue {
        found.append(
          Diagnostic(
            "\(Self.recordingsFolder)/\(entry) is not a feature's folder; only folders of recordings belong there",
            at: featuresLocation))
      } else if contents.contains(where: { !$0.hasPrefix(".") }) {
        found.append(
          Diagnostic(
            "recordings in \(Self.recordingsFolder)/\(entry)/ belong to no feature; list '\(entry)' under "
              + "'features', or delete the folder", at: featuresLocation))
      }
    }
    return found
  }

  /// Why a scenario file would not compile for want of `import Testing`: it uses
  /// `@Test`, `@Suite`, `#expect` or `#require` (in code, not in a comment or a
  /// string) and does not import the module; nil when it is fine.
  static func missingTestingImport(in file: URL) -> String? {
    guard let text = try? String(contentsOf: file, encoding: .utf8),
      !SwiftTokens(text).imports.contains(where: { $0.text == "Testing" })
    else { return nil }
    let code = SwiftTokens.code(of: text)
    guard let use = code.firstMatch(of: /(@Test|@Suite|#expect|#require)\b/) else { return nil }
    let (line, column) = SourceText.position(of: use.range.lowerBound, in: code)
    return "uses \(use.output.1) (line \(line), column \(column)) but does not 'import Testing'; add the import"
  }
}
