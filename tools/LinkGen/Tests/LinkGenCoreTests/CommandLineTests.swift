import Foundation
import LinkGenCore
import Testing

func runLinkGen(_ arguments: [String]) -> (LinkGenCommand.Status, String, String) {
  var output: [String] = []
  var errors: [String] = []
  let status = LinkGenCommand(
    arguments: arguments, standardOutput: { output.append($0) }, standardError: { errors.append($0) }
  ).run()
  return (status, output.joined(separator: "\n"), errors.joined(separator: "\n"))
}

@Test(arguments: ["generate", "check", "new-domain", "map", "symbol-graphs"])
func everyCommandHasHelp(command: String) {
  let (status, output, _) = runLinkGen([command, "--help"])
  #expect(status == .success)
  #expect(output.contains("USAGE: linkgen \(command)"))
}

@Test func theOverviewListsTheCommands() {
  let (status, output, _) = runLinkGen(["--help"])
  #expect(status == .success)
  #expect(output.contains("generate") && output.contains("check") && output.contains("new-domain"))
}

@Test(arguments: [
  (["generat"], "error: unknown command 'generat'; did you mean 'generate'?"),
  ([], "error: missing command; run 'linkgen --help'"),
  (["generate", "--root"], "error: '--root' needs a value"),
  (["generate", "--verbose"], "error: unknown option '--verbose'"),
  (["check", "extra"], "error: unexpected argument 'extra'"),
  (["new-domain", "A", "--kind", "widget"], "error: '--kind' must be 'state' or 'service', not 'widget'"),
  (["new-domain"], "error: new-domain takes exactly one domain name"),
  (["symbol-graphs", "--output", "/tmp"], "error: symbol-graphs takes one or more module names and '--output <dir>'"),
  (["symbol-graphs", "Journal"], "error: symbol-graphs takes one or more module names and '--output <dir>'"),
])
func badCommandLinesAreUsageErrors(arguments: [String], message: String) {
  let (status, _, errors) = runLinkGen(arguments)
  #expect(status == .usage)
  #expect(errors == message)
}

@Test func symbolGraphsRefusesBadNamesModulesNotBuiltAndAFileAsOutputLeavingNothing() throws {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent("symbol-graphs-\(UUID().uuidString)")
  defer { try? FileManager.default.removeItem(at: folder) }
  let modules = folder.appendingPathComponent("Modules")
  try FileManager.default.createDirectory(at: modules, withIntermediateDirectories: true)
  let output = folder.appendingPathComponent("graphs")
  let (status, _, errors) = runLinkGen([
    "symbol-graphs", "Alpha", "Beta", "--modules", modules.path, "--output", output.path,
  ])
  #expect(status == .failure)
  #expect(errors.contains("error: Alpha: 'Alpha' is not built in '\(modules.path)'"), "\(errors)")
  #expect(errors.contains("error: Beta: 'Beta' is not built"), "\(errors)")
  #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("Alpha").path), "no folder left behind")
  // A name that is not a module never reaches outside the output folder.
  let (escaped, _, escapedErrors) = runLinkGen([
    "symbol-graphs", "../Escaped", "--modules", modules.path, "--output", output.path,
  ])
  #expect(escaped == .failure && escapedErrors.contains("is not a Swift identifier"), "\(escapedErrors)")
  #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("Escaped").path))
  // An output that is a file: one reason, before anything is tried.
  let file = folder.appendingPathComponent("a-file")
  try Data().write(to: file)
  let (notFolder, _, notFolderErrors) = runLinkGen([
    "symbol-graphs", "Alpha", "--modules", modules.path, "--output", file.path,
  ])
  #expect(notFolder == .failure)
  #expect(notFolderErrors == "error: '--output' names '\(file.path)', which is not a folder")
  // No modules folder at all: one reason, and the build to run.
  let (missing, _, reason) = runLinkGen([
    "symbol-graphs", "Alpha", "--modules", output.path + "/none", "--output", output.path,
  ])
  #expect(missing == .failure && reason.contains("no built modules in") && reason.contains("build first"), "\(reason)")
}

/// The built `linkgen` next to this test bundle.
func builtLinkGen() throws -> URL {
  var folder = Bundle.main.bundleURL
  for _ in 0..<4 {
    let candidate = folder.appendingPathComponent("linkgen")
    if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    folder.deleteLastPathComponent()
  }
  let path = ProcessInfo.processInfo.arguments.first.map { URL(fileURLWithPath: $0).deletingLastPathComponent() }
  let candidate = try #require(path).appendingPathComponent("linkgen")
  try #require(FileManager.default.isExecutableFile(atPath: candidate.path), "build linkgen first")
  return candidate
}

@Test func theBinaryPrintsCompilerStyleErrorsAndExitsNonZero() throws {
  let root = try TemporaryRoot()
  try root.write("codegen.yaml", "domains:\n  Menu: { stat: MenuState }\n")
  let process = Process()
  process.executableURL = try builtLinkGen()
  process.arguments = ["generate"]
  process.currentDirectoryURL = root.url
  let errors = Pipe()
  process.standardError = errors
  process.standardOutput = Pipe()
  try process.run()
  process.waitUntilExit()
  let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
  #expect(process.terminationStatus == 1)
  #expect(
    text == """
      codegen.yaml:2:3: error: domain 'Menu' needs one of 'state', 'service' or 'resource'
      codegen.yaml:2:11: error: unknown key 'stat' in domain 'Menu'; did you mean 'state'?

      """)
}

@Test func initRefusesAFrameworkFolderThatIsNotTheRepositoryAndWritesNothing() throws {
  let root = try TemporaryRoot()
  let folder = root.url.appendingPathComponent("Shop")
  let (status, _, errors) = runLinkGen(["init", "--root", folder.path, "--framework", root.url.path])
  #expect(status == .failure)
  #expect(errors.contains("'--framework': '\(root.url.standardizedFileURL.path)' is not the Service Linker repository"))
  #expect(!FileManager.default.fileExists(atPath: folder.path))
}

@Test func initRefusesTheFrameworkPackageAloneNamingTheRepositoryRoot() throws {
  let root = try TemporaryRoot()
  let framework = thisRepository.appendingPathComponent("Packages/ServiceLinker").path
  let (status, _, errors) = runLinkGen([
    "init", "--root", root.url.appendingPathComponent("Shop").path, "--framework", framework,
  ])
  #expect(status == .failure)
  #expect(
    errors.contains(
      "that is the framework package alone: pass the repository's root, '\(thisRepository.standardizedFileURL.path)'"),
    "\(errors)")
}

@Test func initFindsTheRepositoryLinkGenWasBuiltFrom() throws {
  guard case .folder(let folder) = try StarterDependency.locate(folder: nil) else {
    Issue.record("not a folder")
    return
  }
  #expect(folder.standardizedFileURL == thisRepository.standardizedFileURL)
  #expect(
    FileManager.default.fileExists(
      atPath: folder.appendingPathComponent("Packages/ServiceLinker/Sources/FeatureKit").path))
}

/// Every `make <target>` that linkgen's or the framework's messages tell a
/// user to run exists in the starter's `linkgen.mk`, so an adopter never
/// meets advice their Makefile cannot follow.
@Test func theStartersMakefileHasEveryTargetTheMessagesMention() throws {
  let root = try TemporaryRoot()
  let folder = root.url.appendingPathComponent("Shop")
  let (status, _, errors) = runLinkGen(["init", "--root", folder.path])
  #expect(status == .success, "\(errors)")
  let makefile = try String(contentsOf: folder.appendingPathComponent("linkgen.mk"), encoding: .utf8)
  let targets = Set(
    makefile.split(separator: "\n").compactMap { line -> String? in
      guard let colon = line.firstIndex(of: ":"), !line.hasPrefix("\t"), !line.hasPrefix("#") else { return nil }
      let name = line[..<colon]
      return name.allSatisfy { $0.isLetter || $0 == "-" } ? String(name) : nil
    })
  let repository = thisRepository
  var mentioned: Set<String> = []
  for sources in ["tools/LinkGen/Sources", "Packages/ServiceLinker/Sources"] {
    let base = repository.appendingPathComponent(sources)
    let enumerator = FileManager.default.enumerator(atPath: base.path)
    while let file = enumerator?.nextObject() as? String {
      guard file.hasSuffix(".swift"), !file.contains("Scaffold/"),
        let text = try? String(contentsOf: base.appendingPathComponent(file), encoding: .utf8)
      else { continue }
      for match in text.matches(of: /'make ([a-z][a-z-]*)/) { mentioned.insert(String(match.1)) }
    }
  }
  #expect(mentioned.contains("record"), "the scan finds the messages")
  #expect(
    mentioned.subtracting(targets).isEmpty, "mentioned but missing from linkgen.mk: \(mentioned.subtracting(targets))")
}
