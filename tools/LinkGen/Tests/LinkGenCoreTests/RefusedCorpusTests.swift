import Foundation
import LinkGenCore
import Testing

/// The corpus of manifests linkgen must refuse (`Corpus/refused/*.yaml`), each
/// with its expected diagnostics (`*.expected`, exactly what `linkgen generate`
/// prints on stderr, every line `codegen.yaml:LINE:COLUMN: error: …`). A
/// refusal writes nothing. Re-record after an intended change with
/// `LINKGEN_RECORD=1 make test` and review the diff.
@Test func everyManifestOfTheRefusedCorpusIsRefusedWithItsLocatedDiagnostics() throws {
  let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Corpus/refused")
  let cases = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".yaml") }.sorted()
  #expect(cases.count >= 60)
  let recording = ProcessInfo.processInfo.environment["LINKGEN_RECORD"] == "1"
  for name in cases {
    let root = try TemporaryRoot()
    let bytes = try Data(contentsOf: folder.appendingPathComponent(name))
    try bytes.write(to: URL(fileURLWithPath: root.manifestPath))
    let (status, output, errors) = root.run(["generate"])
    let text = errors.replacingOccurrences(of: root.manifestPath, with: "codegen.yaml") + "\n"
    let expectedURL = folder.appendingPathComponent(name.replacingOccurrences(of: ".yaml", with: ".expected"))
    #expect(status == .failure, "\(name) was accepted")
    #expect(output.isEmpty, "\(name)")
    #expect(!root.exists("Generated"), "\(name) wrote Generated/")
    for line in text.split(separator: "\n") {
      #expect(line.hasPrefix("codegen.yaml:"), "\(name): unlocated diagnostic '\(line)'")
    }
    if recording {
      try Data(text.utf8).write(to: expectedURL)
    } else {
      let expected = (try? String(contentsOf: expectedURL, encoding: .utf8)) ?? "(no .expected file)"
      #expect(text == expected, "\(name)")
    }
  }
}
