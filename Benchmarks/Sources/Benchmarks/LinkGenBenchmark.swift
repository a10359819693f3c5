import Foundation
import Journal
import JournalIO
import LinkGenCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// linkgen on synthetic manifests of growing size, and a no-op run on the real one.
enum LinkGenBenchmark {
  static func run(sizes: [Int], realManifest: String?) throws -> String {
    var rows: [[String]] = []
    for size in sizes {
      let manifest = synthetic(domains: size)
      var files: [String: String] = [:]
      var inMemory = Double.infinity
      var first = Double.infinity
      var again = Double.infinity
      var raw = Double.infinity
      // Best of three, each into fresh folders: file-system timings are noisy here.
      for _ in 0..<3 {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("linkgen-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        // Deleting the last round's trees leaves the disk busy (the file system is
        // mounted with `discard`); let it settle so each phase is timed alone.
        sync()
        inMemory = min(
          inMemory, try timed { files = Generator.files(for: try ManifestDecoder.decode(manifest)) })
        sync()
        first = min(
          first,
          try timed {
            _ = try GeneratedTree(root: root).apply(Generator.files(for: try ManifestDecoder.decode(manifest)))
          })
        sync()
        again = min(
          again,
          try timed {
            _ = try GeneratedTree(root: root).apply(Generator.files(for: try ManifestDecoder.decode(manifest)))
          })
        sync()
        raw = min(raw, try rawCreate(files, under: root.appendingPathComponent("raw")))
      }
      rows.append([
        format(Double(size), decimals: 0), format(Double(files.count), decimals: 0), format(inMemory * 1e3),
        format(first * 1e3), format(raw * 1e3), format(first / raw, decimals: 2), format(again * 1e3),
      ])
    }
    var text = markdownTable(
      [
        "domains", "files", "ms, parse + emit (memory)", "ms, first generate",
        "ms, baseline: mkdir + write the same files",
        "ratio", "ms, no-op rerun",
      ], rows)
    if let realManifest {
      let workspace = Workspace(manifestPath: realManifest, root: nil)
      var best = Double.infinity
      for _ in 0..<5 {
        best = min(
          best,
          try timed {
            _ = try GeneratedTree(root: workspace.root).apply(Generator.files(for: try workspace.loadManifest()))
          })
      }
      text +=
        "\n\nNo-op `generate` on the real manifest (best of 5): \(format(best * 1e3, decimals: 2)) ms (goal: under 50 ms)."
    }
    return text
  }

  /// The file-system floor: create the folders and write the files, nothing else.
  static func rawCreate(_ files: [String: String], under root: URL) throws -> Double {
    try timed {
      var folders: Set<String> = []
      for (path, text) in files {
        let target = root.appendingPathComponent(path)
        let folder = target.deletingLastPathComponent().path
        if folders.insert(folder).inserted {
          try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        let descriptor = open(target.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw Errno.current }
        _ = Array(text.utf8).withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
      }
    }
  }

  /// The linkgen commands as a user runs them, on 1,000 domains composed by 20
  /// worlds: the first `generate`, against `cp -r` of the folder it wrote (the
  /// floor: the same files, created by the same file system); a no-op `generate`;
  /// and `check`, against both. Each is a process, as a user runs it, when
  /// `linkgen` (the built tool's path) is given; in this process otherwise. Best
  /// of `rounds`, each into a fresh folder, `sync` before each phase.
  static func commands(domains: Int, worlds: Int, rounds: Int, linkgen: String?) throws -> String {
    let manifest = synthetic(domains: domains, worlds: worlds)
    var first = Double.infinity
    var copy = Double.infinity
    var again = Double.infinity
    var checked = Double.infinity
    var files = 0
    for _ in 0..<rounds {
      let root = FileManager.default.temporaryDirectory.appendingPathComponent("linkgen-cli-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(at: root) }
      try Data(manifest.utf8).write(to: root.appendingPathComponent("codegen.yaml"))
      // Output is dropped: `check` reports the synthetic tree's unlinked folders, after doing all its work.
      func run(_ command: String) throws -> Double {
        sync()
        let arguments = [command, "--root", root.path]
        guard let linkgen else {
          return timed {
            _ = LinkGenCommand(arguments: arguments, standardOutput: { _ in }, standardError: { _ in }).run()
          }
        }
        return try timed { _ = try runProcess(linkgen, arguments) }
      }
      first = min(first, try run("generate"))
      again = min(again, try run("generate"))
      checked = min(checked, try run("check"))
      sync()
      let copied = try timed {
        let status = try runProcess(
          "/bin/cp", ["-r", root.appendingPathComponent("Generated").path, root.path + "/copy"])
        guard status == 0 else { throw CopyFailed(status: status) }
      }
      copy = min(copy, copied)
      files = RepositoryScan(root: root, within: "Generated").generatedFiles.count
    }
    let rows = [
      ["first `generate`", ms(first), ratio(first, copy)],
      ["`cp -r` of what it wrote (\(files) files)", ms(copy), "1.00"],
      ["no-op `generate`", ms(again), ratio(again, copy)],
      ["`check`", ms(checked), ratio(checked, copy)],
    ]
    return markdownTable(
      [
        "\(format(Double(domains), decimals: 0)) domains × \(worlds) worlds\(linkgen == nil ? " (in process)" : "")",
        "ms, best of \(rounds)",
        "ratio to `cp -r`",
      ],
      rows)
      + "\n\n`check` against the first `generate`: \(ratio(checked, first))x; against a no-op `generate`: "
      + "\(ratio(checked, again))x."
  }

  /// Runs `executable` with `arguments`, output dropped; its exit status.
  private static func runProcess(_ executable: String, _ arguments: [String]) throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    return process.terminationStatus
  }

  /// `cp -r` exited with `status`.
  struct CopyFailed: Error { var status: Int32 }

  /// A manifest of `domains` domains: a third state slices, a third services
  /// with a stateful and a stateless link, a third resources, and `worlds`
  /// worlds that each compose every domain.
  static func synthetic(domains: Int, worlds: Int = 1) -> String {
    var lines = ["domains:"]
    var world: [String] = []
    var picks: [String] = []
    for index in 0..<domains {
      let name = "Domain\(index)"
      world.append(name)
      switch index % 3 {
      case 0: lines.append("  \(name): { state: State\(index), doc: \"Slice \(index).\" }")
      case 1:
        lines.append("  \(name):")
        lines.append("    service: Service\(index)")
        lines.append("    links:")
        lines.append("      Live: { impl: Live\(index), stores: live\(index) }")
        lines.append("      Fake: { impl: Fake\(index), demands: { frozenNow: Date } }")
        picks.append("\(name): Live")
      default: lines.append("  \(name): { resource: Resource\(index) }")
      }
    }
    lines.append("worlds:")
    for index in 0..<worlds {
      let suffix = worlds == 1 ? "" : "\(index)"
      lines.append("  BigWorld\(suffix):")
      lines.append("    module: BigApp\(suffix)")
      lines.append("    domains: [\(world.joined(separator: ", "))]")
      lines.append("    links: { \(picks.joined(separator: ", ")) }")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The shapes that once made linkgen slow or crash, each against a linear
  /// case measured in the same run: deep nesting, many unknown names, and the
  /// perimeter check with many worlds. Ratios near 1 mean linear.
  static func pathological(smoke: Bool) throws -> String {
    var rows: [[String]] = []
    // 1. Nesting 32k deep (refused at depth 64) against a flat manifest of the same size.
    let depth = smoke ? 2_000 : 32_000
    let deep = "domains:\n  Menu: " + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "\n"
    var flat = "domains:\n"
    while flat.utf8.count < deep.utf8.count { flat += "  D\(flat.utf8.count): { state: S }\n" }
    let deepTime = try best { _ = try? ManifestDecoder.decode(deep) }
    let flatTime = try best { _ = try? ManifestDecoder.decode(flat) }
    rows.append([
      "nesting \(depth) deep (refused)", "a flat manifest of the same size", ms(deepTime), ms(flatTime),
      ratio(deepTime, flatTime),
    ])

    // 2. 100 worlds × 50 unknown names over 1,000 domains, against the same worlds with known names.
    let domainCount = smoke ? 100 : 1_000
    let worldCount = smoke ? 10 : 100
    let unknown = (0..<50).map { "Missing\($0)" }
    let known = (0..<50).map { "Domain\($0)" }
    func manifest(_ names: [String]) -> String {
      var text =
        "domains:\n" + (0..<domainCount).map { "  Domain\($0): { state: State\($0) }\n" }.joined() + "worlds:\n"
      for world in 0..<worldCount {
        text += "  World\(world): { module: App, domains: [\(names.joined(separator: ", "))] }\n"
      }
      return text
    }
    let unknownText = manifest(unknown)
    let knownText = manifest(known)
    let unknownTime = try best { _ = try? ManifestDecoder.decode(unknownText) }
    let knownTime = try best { _ = try? ManifestDecoder.decode(knownText) }
    rows.append([
      "\(worldCount) worlds × 50 unknown names, \(domainCount) domains", "the same worlds, names known",
      ms(unknownTime),
      ms(knownTime), ratio(unknownTime, knownTime),
    ])

    // 3. The perimeter check over many files with 100 worlds, against 1 world.
    let files = smoke ? 200 : 2_000
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("perimeter-bench-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: root) }
    for index in 0..<files {
      let folder = root.appendingPathComponent("Packages/Domain\(index)/Sources/Domain\(index)")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let body = (0..<20).map { "public func read\($0)(_ value: Int) -> Int { value + \($0) } // World\($0)" }
      try Data((["import Foundation"] + body).joined(separator: "\n").utf8).write(
        to: folder.appendingPathComponent("Domain\(index).swift"))
    }
    let many = (0..<100).map { World(name: "World\($0)", module: "App\($0)", domains: [], links: [:]) }
    let manyTime = try best { _ = PerimeterCheck(root: root, worlds: many).violations() }
    let oneTime = try best { _ = PerimeterCheck(root: root, worlds: Array(many.prefix(1))).violations() }
    rows.append([
      "perimeter: \(files) files, 100 worlds", "the same files, 1 world", ms(manyTime), ms(oneTime),
      ratio(manyTime, oneTime),
    ])

    return markdownTable(["shape", "linear case", "ms", "ms, linear case", "ratio"], rows)
  }

  private static func best(_ body: () throws -> Void) throws -> Double {
    var best = Double.infinity
    for _ in 0..<3 { best = min(best, try timed(body)) }
    return best
  }

  private static func ms(_ seconds: Double) -> String { format(seconds * 1e3) }
  private static func ratio(_ a: Double, _ b: Double) -> String { format(a / b, decimals: 2) }
}
