import Foundation
import LinkGenCore
import Testing

/// A throwaway repository root: a manifest, `Generated/`, whatever a test writes.
final class TemporaryRoot {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent("linkgen-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: url) }

  var manifestPath: String { url.appendingPathComponent("codegen.yaml").path }

  func write(_ relative: String, _ text: String) throws {
    let target = url.appendingPathComponent(relative)
    try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: target)
  }

  func read(_ relative: String) -> String? {
    FileManager.default.contents(atPath: url.appendingPathComponent(relative).path).map {
      String(decoding: $0, as: UTF8.self)
    }
  }

  func exists(_ relative: String) -> Bool {
    FileManager.default.fileExists(atPath: url.appendingPathComponent(relative).path)
  }

  /// Every file below the root: relative path → (bytes, modification date).
  func contents() -> [String: (Data, Date)] {
    var result: [String: (Data, Date)] = [:]
    let enumerator = FileManager.default.enumerator(atPath: url.path)
    while let relative = enumerator?.nextObject() as? String {
      let path = url.appendingPathComponent(relative).path
      let attributes = try? FileManager.default.attributesOfItem(atPath: path)
      guard attributes?[.type] as? FileAttributeType == .typeRegular,
        let data = FileManager.default.contents(atPath: path),
        let date = attributes?[.modificationDate] as? Date
      else { continue }
      result[relative] = (data, date)
    }
    return result
  }

  /// True when both listings have the same files with the same bytes and dates.
  static func same(_ a: [String: (Data, Date)], _ b: [String: (Data, Date)]) -> Bool {
    a.count == b.count && a.allSatisfy { key, value in b[key].map { $0.0 == value.0 && $0.1 == value.1 } ?? false }
  }

  /// Links every folder under `Generated/` into a package of the same name, as
  /// a repository that compiles them does (`check` requires it).
  func linkGeneratedFolders() throws {
    let manager = FileManager.default
    let generated = url.appendingPathComponent("Generated")
    for folder in (try? manager.contentsOfDirectory(atPath: generated.path)) ?? [] {
      let sources = url.appendingPathComponent("Packages/\(folder)/Sources/\(folder)")
      try manager.createDirectory(at: sources, withIntermediateDirectories: true)
      let link = sources.appendingPathComponent("Generated").path
      if (try? manager.destinationOfSymbolicLink(atPath: link)) == nil {
        try manager.createSymbolicLink(atPath: link, withDestinationPath: "../../../../Generated/\(folder)")
      }
    }
  }

  /// Runs `linkgen` with `arguments` plus `--root <this root>`; returns status, stdout, stderr.
  func run(_ arguments: [String]) -> (LinkGenCommand.Status, String, String) {
    var output: [String] = []
    var errors: [String] = []
    let status = LinkGenCommand(
      arguments: arguments + ["--root", url.path],
      standardOutput: { output.append($0) },
      standardError: { errors.append($0) }
    ).run()
    return (status, output.joined(separator: "\n"), errors.joined(separator: "\n"))
  }
}

/// Replaces `old` (which must be there) with `new` in `file`, then expects
/// `linkgen check` to fail with an error containing `message`.
func expectCheckFails(
  in root: TemporaryRoot, editing file: String, replacing old: String, with new: String, saying message: String
) throws {
  let text = try #require(root.read(file))
  #expect(text.contains(old), "\(text)")
  try root.write(file, text.replacingOccurrences(of: old, with: new))
  let (status, _, errors) = root.run(["check"])
  #expect(status == .failure)
  #expect(errors.contains(message), "\(errors)")
}
