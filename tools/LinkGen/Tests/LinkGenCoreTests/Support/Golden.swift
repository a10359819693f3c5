import Foundation
import Testing

/// Compares generated files with the golden copies in `Golden/<folder>/`.
///
/// Re-record after an intended change with `LINKGEN_RECORD=1 make test`,
/// then review the diff of `Golden/` like any other change.
func expectGolden(
  _ files: [String: String], folder: String, sourceLocation: SourceLocation = #_sourceLocation
) throws {
  let goldenRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Golden").appendingPathComponent(folder)
  let names = files.keys.map { ($0 as NSString).lastPathComponent + ".golden" }
  if ProcessInfo.processInfo.environment["LINKGEN_RECORD"] == "1" {
    try? FileManager.default.removeItem(at: goldenRoot)
    try FileManager.default.createDirectory(at: goldenRoot, withIntermediateDirectories: true)
    for (path, text) in files {
      let name = (path as NSString).lastPathComponent + ".golden"
      try Data(text.utf8).write(to: goldenRoot.appendingPathComponent(name))
    }
    return
  }
  let recorded = (try? FileManager.default.contentsOfDirectory(atPath: goldenRoot.path)) ?? []
  #expect(Set(recorded) == Set(names), "golden files in \(folder)", sourceLocation: sourceLocation)
  for (path, text) in files {
    let name = (path as NSString).lastPathComponent + ".golden"
    let golden = FileManager.default.contents(atPath: goldenRoot.appendingPathComponent(name).path)
      .map { String(decoding: $0, as: UTF8.self) }
    #expect(golden == text, "\(path) differs from Golden/\(folder)/\(name)", sourceLocation: sourceLocation)
  }
}
