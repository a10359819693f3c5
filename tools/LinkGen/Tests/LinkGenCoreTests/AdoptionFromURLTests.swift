import Foundation
import LinkGenCore
import Testing

/// A new user's first hour, from a git URL: a bare repository of this one,
/// tagged; then docs/adopting.md's "Start from the URL" commands, run as written
/// (`linkgen init --url … --version …`, three domains and a service into both
/// worlds, a removal, `make test`, `make replay`, `make map`, the plugin), with
/// `PATH` holding only the system's and the toolchain's folders: no linkgen on it.
@Suite(
  .tags(.nestedBuild),
  .enabled(if: nestedBuildsEnabled, "SKIP_NESTED_BUILDS is set: make test-fast skips SwiftPM builds"))
struct AdoptionFromURLTests {
  static let tag = "1.0.0"

  @Test func theDocumentedStartFromAURLBuildsTestsAndReplaysWithNothingOnPath() throws {
    let root = try TemporaryRoot()
    let bare = try Self.bareRepositoryOfThisOne(in: root.url, tag: Self.tag)
    let script = try Self.documentedCommands()
    let toolchainFolder = try #require(Self.toolchainFolder(), "swift is not on PATH")
    let path = [toolchainFolder, "/usr/bin", "/bin"].joined(separator: ":")

    let (status, log) = try Self.bash(
      "set -euxo pipefail\nif command -v linkgen; then echo 'linkgen is on PATH' >&2; exit 1; fi\n" + script,
      in: root.url,
      environment: ["PATH": path, "URL": "file://\(bare.path)", "TAG": Self.tag])
    #expect(status == 0, "the documented commands failed; the end of their output:\n\(log.suffix(6_000))")
    guard status == 0 else { return }

    let library = root.url.appendingPathComponent("Library")
    // make test ran the starter's and the new domains' tests, after linkgen check.
    #expect(log.contains("Generated/ is up to date"), "make test checks first")
    for test in [
      "theWorldRunsItsCommandsAndRestoresItsSlices", "theTestWorldRunsTheSameCommands",
      "theRecordingMockSeesEveryCallAndAnswersAsTold", "anAddLaterArrivesWhenItsTimeComesOnVirtualTime",
    ] {
      #expect(log.contains("\(test)() passed"), "\(test) did not pass")
    }
    #expect(log.contains("each leaf matches its recording"))
    #expect(log.contains("1 recordings, 3 steps sent: 1 passed, 0 failed"), "make replay")
    let map = try String(contentsOf: library.appendingPathComponent("docs/access-map.md"), encoding: .utf8)
    #expect(map.contains("### Loans (`LoansState`)") && !map.contains("Not read"), "\(map)")

    let generated = library.appendingPathComponent("Generated")
    let world = try String(contentsOf: generated.appendingPathComponent("App/AppWorld+Links.swift"), encoding: .utf8)
    #expect(world.contains("HasMutableLoans") && world.contains("LinkLiveNotifier") && !world.contains("Greeter"))
    let testWorld = try String(
      contentsOf: generated.appendingPathComponent("AppTests/AppTestWorld+Links.swift"), encoding: .utf8)
    #expect(testWorld.contains("HasMutableBooks") && testWorld.contains("LinkFakeNotifier"))

    // The starter depends on the URL at the tag, and names no folder of this machine.
    let package = try String(contentsOf: library.appendingPathComponent("Package.swift"), encoding: .utf8)
    #expect(package.contains(".package(url: \"file://\(bare.path)\", from: \"\(Self.tag)\")"), "\(package)")
    let (grepStatus, found) = try Self.bash(
      // A path ends where a path's characters stop: `service-linker` is not `service-linker.git`.
      #"grep -rlE --exclude-dir=.build -e "$SOURCE([^.A-Za-z0-9_-]|$)" -e "$CLONE([^.A-Za-z0-9_-]|$)" . || true"#,
      in: library,
      environment: [
        "PATH": path, "SOURCE": thisRepository.standardizedFileURL.path,
        "CLONE": root.url.appendingPathComponent("service-linker").path,
      ])
    #expect(grepStatus == 0 && found.isEmpty, "paths of this machine in the starter:\n\(found)")
  }

  /// The commands of docs/adopting.md's block marked `adoption-lane`, as a shell script.
  static func documentedCommands() throws -> String {
    let text = try String(contentsOf: thisRepository.appendingPathComponent("docs/adopting.md"), encoding: .utf8)
    let marker = try #require(text.range(of: "<!-- adoption-lane:"), "docs/adopting.md has no adoption-lane block")
    let fence = try #require(text.range(of: "```sh\n", range: marker.upperBound..<text.endIndex))
    let end = try #require(text.range(of: "\n```", range: fence.upperBound..<text.endIndex))
    return String(text[fence.upperBound..<end.lowerBound]) + "\n"
  }

  /// A bare repository at `folder/service-linker.git` holding this repository's
  /// files as they stand (committed or not, ignored ones left out), tagged `tag`.
  static func bareRepositoryOfThisOne(in folder: URL, tag: String) throws -> URL {
    let snapshot = folder.appendingPathComponent("snapshot")
    let bare = folder.appendingPathComponent("service-linker.git")
    let (status, output) = try bash(
      """
      set -euo pipefail
      mkdir -p "$SNAPSHOT"
      cd "$SOURCE"
      git ls-files -z --cached --others --exclude-standard \
        | while IFS= read -r -d '' file; do if [ -e "$file" ] || [ -L "$file" ]; then printf '%s\\0' "$file"; fi; done \
        | tar --null -T - -cf - | tar -xf - -C "$SNAPSHOT"
      cd "$SNAPSHOT"
      git init -q
      git add -A
      git -c user.name=linkgen -c user.email=linkgen@localhost commit -q -m snapshot
      git tag "$TAG"
      git clone -q --bare . "$BARE"
      """,
      in: folder,
      environment: [
        "SOURCE": thisRepository.path, "SNAPSHOT": snapshot.path, "BARE": bare.path, "TAG": tag,
        "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
      ])
    try #require(status == 0, "could not make a bare repository: \(output)")
    try? FileManager.default.removeItem(at: snapshot)
    return bare
  }

  /// The folder of the `swift` on this process's PATH, symbolic links resolved.
  static func toolchainFolder() -> String? {
    let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init)
    for folder in folders {
      let candidate = URL(fileURLWithPath: folder).appendingPathComponent("swift")
      if FileManager.default.isExecutableFile(atPath: candidate.path) {
        return candidate.resolvingSymlinksInPath().deletingLastPathComponent().path
      }
    }
    return nil
  }

  /// Runs `script` with bash in `folder`, with `HOME` and `environment` only;
  /// returns its status and its combined output.
  static func bash(_ script: String, in folder: URL, environment: [String: String]) throws -> (Int32, String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = ["-c", script]
    process.currentDirectoryURL = folder
    var variables = environment
    variables["HOME"] = ProcessInfo.processInfo.environment["HOME"] ?? folder.path
    process.environment = variables
    let log = FileManager.default.temporaryDirectory.appendingPathComponent("adoption-\(UUID().uuidString).log")
    _ = FileManager.default.createFile(atPath: log.path, contents: nil)
    let handle = try FileHandle(forWritingTo: log)
    defer {
      try? handle.close()
      try? FileManager.default.removeItem(at: log)
    }
    process.standardOutput = handle
    process.standardError = handle
    try process.run()
    process.waitUntilExit()
    let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
    return (process.terminationStatus, text)
  }
}
