import Foundation

/// The `linkgen` command line: parses arguments, runs one command, returns the exit status.
///
/// Output goes through the two closures so tests can capture it.
public struct LinkGenCommand {
  /// Exit statuses.
  public enum Status: Int32, Sendable {
    /// Done.
    case success = 0
    /// The manifest has errors, `Generated/` is stale, or the perimeter is broken.
    case failure = 1
    /// The command line itself is wrong.
    case usage = 2
  }

  let arguments: [String]
  let standardOutput: (String) -> Void
  let standardError: (String) -> Void

  /// A command for `arguments` (without the program name).
  public init(
    arguments: [String],
    standardOutput: @escaping (String) -> Void = { print($0) },
    standardError: @escaping (String) -> Void = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }
  ) {
    self.arguments = arguments
    self.standardOutput = standardOutput
    self.standardError = standardError
  }

  static let overview = """
    OVERVIEW: Generates Service Linker capabilities from codegen.yaml.

    USAGE: linkgen <command> [options]

    COMMANDS:
      generate     Write Generated/ from the manifest
      check        Fail when Generated/ is stale, the perimeter is broken, or a feature's files are missing
      new-domain   Add a domain to the manifest, scaffold its package, regenerate
      remove-domain  Undo new-domain: the domain leaves the manifest, its worlds and the package manifests
      map          Write docs/access-map.md from the compiler's symbol graphs
      symbol-graphs  Write built modules' public symbol graphs into a folder (what make docs reads)
      init         Start a repository: a starter manifest, packages, Generated/, a Makefile fragment

    Run 'linkgen <command> --help' for a command's options.
    """

  static let commonOptions = """
      --manifest <path>   The manifest (default: codegen.yaml)
      --root <dir>        The repository root (default: the manifest's folder)
      -h, --help          Show help information
    """

  static let help: [String: String] = [
    "generate": """
    OVERVIEW: Write Generated/ from the manifest; only changed files are rewritten,
    files no longer produced are deleted, nothing changes when the manifest has errors.

    USAGE: linkgen generate [--manifest <path>] [--root <dir>]

    OPTIONS:
    \(commonOptions)
    """,
    "check": """
    OVERVIEW: Exit 1 when Generated/ differs from what the manifest produces, when a
    world is named outside its composition root, when a feature's scenario file or
    recordings (Tests/Recordings/<feature>/<fixture>.json) do not match 'features:', or
    when the root Package.swift's DomainPackage(name:, uses:, testing:) listing and a
    domain's own Packages/NAME/Package.swift disagree, or when a mocked service's
    'requirements:' and its protocol declare different methods (reported at the
    requirement in the manifest). Writes nothing.

    USAGE: linkgen check [--manifest <path>] [--root <dir>]

    OPTIONS:
    \(commonOptions)
    """,
    "new-domain": """
    OVERVIEW: Add domain NAME to the manifest, scaffold Packages/NAME (package manifest,
    sources, one read, one command, one test, the link to Generated/NAME), list it in
    the root Package.swift, and regenerate. All or nothing.

    With --world, each world named composes it too (a service links its Live implementation),
    and the files the world is built from gain it at their marker lines: '// linkgen:WORLD-domains-end'
    in the package manifests, '// linkgen:WORLD-storage-end' in the world's struct. A new slice
    also goes to every world that shares the named world's snapshot. 'World:Fake' links a
    service's stateless fake in that world (a test world) instead of Live. A service gets a
    NAMETesting library (a recording mock and a closure witness) its test uses.

    With --uses, its package depends on those domains (by path, in its own manifest and
    in the root Package.swift's listing).

    USAGE: linkgen new-domain <name> [--kind state|service] [--world <A,B>] [--uses <A,B>] [--manifest <path>] [--root <dir>]

    OPTIONS:
      --kind <kind>       state (default) or service
      --world <A,B:Fake>  worlds to add the domain to (a production world and a test world, say)
      --uses <A,B>        domains its package depends on
    \(commonOptions)
    """,
    "remove-domain": """
    OVERVIEW: Undo what new-domain did: domain NAME leaves the manifest (its entry, every
    world's domains and links), its line leaves the root Package.swift and every
    '// linkgen:WORLD-domains-end' listing, its declaration and import leave each world's
    struct, Packages/NAME is deleted, and Generated/ is regenerated. All or nothing.

    Refused, with nothing changed, while anything else still uses the domain: an import
    of it, one of its types, or another package manifest naming it (each listed as
    file:line:column). Refused too while Packages/NAME holds a file new-domain did not
    write, or one changed since (each listed), unless --force: deleting it loses that work.

    USAGE: linkgen remove-domain <name> [--force] [--manifest <path>] [--root <dir>]

    OPTIONS:
      --force             delete Packages/NAME even with files changed or added in it
    \(commonOptions)
    """,
    "symbol-graphs": """
    OVERVIEW: Write the public symbol graphs of built modules into <dir>/<module>/, with
    `swift symbolgraph-extract` run as `map` runs it (the host's target, the built
    modules, the module maps SwiftPM wrote for the C targets it built, and the root
    package's system libraries with their pkg-config header folders, so a module
    importing one is read). `make docs` checks their doc comments. Build first.

    USAGE: linkgen symbol-graphs <module>... --output <dir> [--modules <dir>] [--root <dir>]

    OPTIONS:
      --modules <dir>     The built modules (default: .build/debug/Modules under the root)
      --output <dir>      Where each module's graphs go, in a folder of its name (required)
      --root <dir>        The repository root (default: the current folder)
      -h, --help          Show help information
    """,
    "init": """
    OVERVIEW: Start a Service Linker repository in an empty folder: codegen.yaml with one
    state domain (Counter), one service (Greeter) and one world (AppWorld, in Packages/App),
    an umbrella Package.swift, the domain packages, Generated/, and linkgen.mk (a Makefile
    fragment; a Makefile that includes it when there is none). All or nothing.

    The starter depends on the Service Linker repository, from a git URL at a tag
    (--url, --version) or from a folder (--framework, written relative to the starter):
    nothing machine-specific is written. Its Makefile builds linkgen from that
    dependency, so `make test` works with nothing on PATH. It ships one feature on the
    framework (Counting, in Packages/App/Sources/AppFeatures), with timed work, a
    TestStore test, a scenario and its recording, a replay executable, and
    `make record` / `make replay`.

    USAGE: linkgen init [--url <git-url> --version <tag> | --framework <dir>] [--root <dir>] [--name <package>]

    OPTIONS:
      --url <git-url>     The Service Linker repository's git URL (file://, https://, ssh://);
                          init checks with 'git ls-remote' that it has the tag
      --version <tag>     A semantic version tag of it (1.2.0 or v1.2.0): the starter
                          depends on it with 'from:'
      --framework <dir>   The Service Linker repository's folder on this machine, for local
                          work (default: the repository this linkgen was built from)
      --root <dir>        The folder (default: the current one)
      --name <package>    The umbrella package's name (default: the folder's, or Starter)
      -h, --help          Show help information
    """,
    "map": """
    OVERVIEW: Write docs/access-map.md: for every slice, the functions that read it and
    those that write it, from the `where` clauses the compiler recorded in the symbol
    graphs of the built modules (`swift symbolgraph-extract`); for every world, what it
    links. Build first (`swift build`); `make map` does both. Rewrites the file only
    when it changes.

    USAGE: linkgen map [--modules <dir>] [--output <path>] [--manifest <path>] [--root <dir>]

    OPTIONS:
      --modules <dir>     The built modules (default: .build/debug/Modules under the root)
      --output <path>     The map (default: docs/access-map.md under the root)
    \(commonOptions)
    """,
  ]

  /// Runs the command; never exits the process.
  public func run() -> Status {
    guard let command = arguments.first else {
      standardError("error: missing command; run 'linkgen --help'")
      return .usage
    }
    if ["-h", "--help", "help"].contains(command) {
      standardOutput(Self.overview)
      return .success
    }
    guard let help = Self.help[command] else {
      let hint = Suggestion.hint(for: command, in: Self.help.keys.sorted())
      standardError("error: unknown command '\(command)'\(hint)")
      return .usage
    }
    let options: Options
    do {
      options = try Options(
        Array(arguments.dropFirst()), allowsKind: command == "new-domain",
        allowsMapOptions: ["map", "symbol-graphs"].contains(command),
        allowsName: command == "init",
        allowsPositional: ["new-domain", "remove-domain", "symbol-graphs"].contains(command),
        allowsForce: command == "remove-domain")
    } catch {
      standardError("error: \(error)")
      return .usage
    }
    if options.wantsHelp {
      standardOutput(help)
      return .success
    }
    let workspace = Workspace(
      manifestPath: options.manifest ?? options.root.map { "\($0)/codegen.yaml" } ?? "codegen.yaml", root: options.root)
    do {
      switch command {
      case "generate": return try generate(workspace)
      case "check": return try check(workspace)
      case "map": return try map(workspace, modules: options.modules, output: options.output)
      case "symbol-graphs":
        guard !options.positional.isEmpty, let output = options.output else {
          standardError("error: symbol-graphs takes one or more module names and '--output <dir>'")
          return .usage
        }
        return try symbolGraphs(of: options.positional, workspace, modules: options.modules, output: output)
      case "init": return try initialize(root: options.root ?? ".", name: options.name, options: options)
      default:
        guard options.positional.count == 1 else {
          standardError("error: \(command) takes exactly one domain name")
          return .usage
        }
        if command == "remove-domain" {
          let summary = try DomainRemover(workspace: workspace).removeDomain(
            named: options.positional[0], force: options.force)
          standardOutput(
            "linkgen: removed domain '\(options.positional[0])' (Packages/\(options.positional[0])); "
              + "\(summary.written.count) written, \(summary.deleted.count) deleted")
          return .success
        }
        return try newDomain(
          options.positional[0], kind: options.kind, worlds: options.worlds, uses: options.uses, workspace)
      }
    } catch let error as DiagnosticError {
      standardError(error.rendered(file: workspace.displayPath))
      return .failure
    } catch {
      standardError("error: \(Self.reason(for: error))")
      return .failure
    }
  }

  private func generate(_ workspace: Workspace) throws -> Status {
    let clock = ContinuousClock()
    let start = clock.now
    let manifest = try workspace.loadManifest()
    // One walk of the tree, shared by the placement check and the writer.
    let scan = RepositoryScan(root: workspace.root)
    let problems = WorldPlacement(root: workspace.root, manifest: manifest, scan: scan).problems()
    guard problems.isEmpty else {
      for problem in problems { standardError("error: \(problem)") }
      return .failure
    }
    let summary = try GeneratedTree(root: workspace.root, scan: scan).apply(Generator.files(for: manifest))
    let elapsed = start.duration(to: clock.now)
    let milliseconds = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
    standardOutput(
      "linkgen: \(summary.written.count) written, \(summary.unchanged.count) unchanged, "
        + "\(summary.deleted.count) deleted in \(Int(milliseconds.rounded())) ms")
    return .success
  }

  private func check(_ workspace: Workspace) throws -> Status {
    let manifestText = try workspace.readManifestText()
    let manifest = try ManifestDecoder.decode(manifestText)
    let files = Generator.files(for: manifest)
    // One walk of the tree, shared by every check below.
    let scan = RepositoryScan(root: workspace.root)
    let differences = GeneratedTree(root: workspace.root, scan: scan).differences(from: files)
    var perimeter = PerimeterCheck(
      root: workspace.root, worlds: manifest.worlds, domainModules: Set(manifest.domains.map(\.name)), scan: scan)
    // A generated file found up to date holds exactly the text just generated: the perimeter reads that text.
    let outOfDate = Set(differences.map(\.path))
    perimeter.knownTexts = files.filter { !outOfDate.contains($0.key) }
    let violations = perimeter.violations()
    for violation in violations { standardError(violation.description) }
    let placement = WorldPlacement(root: workspace.root, manifest: manifest, scan: scan).problems()
    for problem in placement { standardError("error: \(problem)") }
    let folders = Set(files.keys.map { $0.split(separator: "/")[1] }.map(String.init))
    let unlinked = GeneratedWiring(root: workspace.root, scan: scan).unlinkedFolders(among: folders)
    let layout = unlinked.isEmpty ? nil : SourceModules(root: workspace.root)
    for folder in unlinked {
      // Point at the module's real folder when it exists: a test module's is under Tests/, not Sources/.
      let module = layout?.modules.first { $0.name == folder }
      let isTest = module?.isTest ?? folder.hasSuffix("Tests")
      let place = module?.folder ?? "Packages/<Package>/\(isTest ? "Tests" : "Sources")/\(folder)"
      standardError(
        "error: \(Generator.outputFolder)/\(folder) is generated but no package compiles it; link it into the "
          + "module's \(isTest ? "test " : "")sources, e.g. 'ln -s ../../../../\(Generator.outputFolder)/\(folder) "
          + "\(place)/Generated', and give that package a '\(folder)' \(isTest ? "test target" : "target")")
    }
    let drift = RequirementDrift(
      root: workspace.root, manifest: manifest, manifestText: manifestText, scan: scan
    )
    .diagnostics()
    if !drift.isEmpty { standardError(DiagnosticError(drift).rendered(file: workspace.displayPath)) }
    let umbrella = UmbrellaCheck(root: workspace.root, domains: manifest.domains.map(\.name)).problems()
    for problem in umbrella { standardError(problem) }
    let features = FeatureCheck(root: workspace.root, manifest: manifest).diagnostics()
    if !features.isEmpty { standardError(DiagnosticError(features).rendered(file: workspace.displayPath)) }
    if !differences.isEmpty {
      standardError("error: Generated/ is out of date with \(workspace.displayPath):")
      for difference in differences { standardError("  \(difference)") }
      standardError("run 'make generate' to update it")
    }
    if differences.isEmpty && violations.isEmpty && unlinked.isEmpty && placement.isEmpty && features.isEmpty
      && umbrella.isEmpty && drift.isEmpty
    {
      let recorded = manifest.features.isEmpty ? "" : "; every feature's recordings are there"
      standardOutput("linkgen: Generated/ is up to date; the perimeter holds\(recorded)")
      return .success
    }
    return .failure
  }

  /// The folder of built modules: `modules`, or the root's debug build's.
  private func builtModules(_ workspace: Workspace, _ modules: String?, buildHint: String) throws -> URL {
    let folder = URL(fileURLWithPath: modules ?? workspace.root.appendingPathComponent(".build/debug/Modules").path)
    guard FileManager.default.fileExists(atPath: folder.path) else {
      throw LinkGenError("no built modules in '\(folder.path)': build first (\(buildHint))")
    }
    return folder
  }

  private func map(_ workspace: Workspace, modules: String?, output: String?) throws -> Status {
    let manifest = try workspace.loadManifest()
    let extractor = SymbolGraphExtractor(
      modulesFolder: try builtModules(workspace, modules, buildHint: "'swift build', or 'make map'"),
      root: workspace.root)
    // Domains, worlds' modules, and every Swift library of the repository: code that is
    // neither a domain nor a world's module may still read and write slices. C
    // modules (a C target, a system library) have no Swift symbols to read.
    let layout = SourceModules(root: workspace.root)
    let cModules = Set(layout.modules.filter { !$0.isSwift }.map(\.name))
    let names = Set(
      manifest.domains.map(\.name) + manifest.worlds.map(\.module)
        + layout.modules.filter { !$0.isExecutable && !$0.isTest && $0.isSwift }.map(\.name)
    )
    .subtracting(cModules)
    .sorted()
    var graphs: [SymbolGraph] = []
    var missing: [String] = []
    for name in names {
      do {
        if let graph = try extractor.graph(of: name) {
          graphs.append(graph)
        } else {
          missing.append("\(name) (not built)")
        }
      } catch {
        missing.append("\(name) (\(error))")
      }
    }
    let map = AccessMap(manifest: manifest, graphs: graphs, missingModules: missing)
    let text = map.markdown(for: manifest)
    let destination = URL(fileURLWithPath: output ?? workspace.root.appendingPathComponent("docs/access-map.md").path)
    let current = try? String(contentsOf: destination, encoding: .utf8)
    if current == text {
      standardOutput("linkgen: \(destination.path) is up to date (\(graphs.count) modules read)")
    } else {
      try FileManager.default.createDirectory(
        at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(text.utf8).write(to: destination, options: .atomic)
      standardOutput("linkgen: wrote \(destination.path) (\(graphs.count) modules read)")
    }
    return .success
  }

  private func symbolGraphs(of names: [String], _ workspace: Workspace, modules: String?, output: String) throws
    -> Status
  {
    let extractor = SymbolGraphExtractor(
      modulesFolder: try builtModules(workspace, modules, buildHint: "'swift build'"), root: workspace.root)
    var isFolder: ObjCBool = false
    if FileManager.default.fileExists(atPath: output, isDirectory: &isFolder), !isFolder.boolValue {
      throw LinkGenError("'--output' names '\(output)', which is not a folder")
    }
    var failures = 0
    for name in names {
      let folder = URL(fileURLWithPath: output).appendingPathComponent(name)
      let existed = FileManager.default.fileExists(atPath: folder.path)
      do {
        // Both checked before anything is made: a bad name or a module not
        // built leaves no folder behind (and a name never reaches outside `output`).
        if let problem = SwiftIdentifier.problem(with: name) { throw LinkGenError("\(problem), so not a module") }
        try extractor.requireBuilt(name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try extractor.extract(name, into: folder, minimumAccess: "public")
      } catch {
        if !existed { try? FileManager.default.removeItem(at: folder) }
        standardError("error: \(name): \(Self.reason(for: error))")
        failures += 1
      }
    }
    if failures < names.count {
      standardOutput(
        "linkgen: wrote the public symbol graphs of \(names.count - failures) of \(names.count) modules into \(output)")
    }
    return failures == 0 ? .success : .failure
  }

  /// One line saying why `error` happened: a file system error's own reason
  /// (`Not a directory`), not Foundation's description of the whole error.
  static func reason(for error: any Error) -> String {
    if let error = error as? LinkGenError { return error.description }
    let error = error as NSError
    let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError
    let path = error.userInfo[NSFilePathErrorKey] as? String
    return "\(path.map { "'\($0)': " } ?? "")\((underlying ?? error).localizedDescription)"
  }

  private func initialize(root: String, name: String?, options: Options) throws -> Status {
    let folder = URL(fileURLWithPath: root).standardizedFileURL
    let fallback = folder.lastPathComponent.filter { $0.isLetter || $0.isNumber || $0 == "_" }
    let packageName =
      name ?? (SwiftIdentifier.problem(with: fallback) == nil && !fallback.isEmpty ? fallback : "Starter")
    let dependency: StarterDependency
    switch (options.url, options.framework) {
    case (.some, .some): throw LinkGenError("'--url' and '--framework' both name the framework; give one")
    case (.some(let url), nil): dependency = try StarterDependency.parse(url: url, version: options.version)
    case (nil, let framework):
      if options.version != nil { throw LinkGenError("'--version' goes with '--url'; a folder has no tag to take") }
      dependency = try StarterDependency.locate(folder: framework)
    }
    let written = try StarterScaffolder(root: folder, name: packageName, dependency: dependency).write()
    standardOutput(
      "linkgen: started '\(packageName)' in \(folder.path): \(written.count) files; "
        + "next: make test (it builds linkgen from the dependency), then 'make domain NAME=…' to grow it")
    return .success
  }

  private func newDomain(
    _ name: String, kind: ScaffoldKind, worlds: [String], uses: [String], _ workspace: Workspace
  ) throws -> Status {
    let (summary, wired) = try DomainScaffolder(workspace: workspace).addDomain(
      named: name, kind: kind, worlds: worlds, uses: uses)
    let asked = worlds.map { $0.split(separator: ":").first.map(String.init) ?? $0 }
    let twins = wired.filter { !asked.contains($0) }
    let named = worlds.map { "'\($0)'" }.joined(separator: ", ")
    standardOutput(
      "linkgen: added \(kind.rawValue) domain '\(name)' (Packages/\(name))"
        + (worlds.isEmpty ? "" : " to world\(worlds.count == 1 ? "" : "s") \(named)")
        + (twins.isEmpty
          ? ""
          : " and \(twins.map { "'\($0)'" }.joined(separator: ", ")), which share\(twins.count == 1 ? "s" : "") its snapshot")
        + "; "
        + "\(summary.written.count) written, \(summary.deleted.count) deleted")
    return .success
  }
}

/// The options every command shares, and `--kind`.
struct Options {
  var manifest: String?
  var root: String?
  var kind: ScaffoldKind = .state
  var wantsHelp = false
  var positional: [String] = []
  var modules: String?
  var output: String?
  var name: String?
  var worlds: [String] = []
  var framework: String?
  var url: String?
  var version: String?
  var uses: [String] = []
  var force = false

  init(
    _ arguments: [String], allowsKind: Bool, allowsMapOptions: Bool = false, allowsName: Bool = false,
    allowsPositional: Bool? = nil, allowsForce: Bool = false
  ) throws {
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      switch argument {
      case "-h", "--help": wantsHelp = true
      case "--manifest": manifest = try Self.value(for: argument, from: &remaining)
      case "--root": root = try Self.value(for: argument, from: &remaining)
      case "--name" where allowsName: name = try Self.value(for: argument, from: &remaining)
      case "--framework" where allowsName: framework = try Self.value(for: argument, from: &remaining)
      case "--url" where allowsName: url = try Self.value(for: argument, from: &remaining)
      case "--version" where allowsName: version = try Self.value(for: argument, from: &remaining)
      case "--modules" where allowsMapOptions: modules = try Self.value(for: argument, from: &remaining)
      case "--output" where allowsMapOptions: output = try Self.value(for: argument, from: &remaining)
      case "--world" where allowsKind: worlds = try Self.list(for: argument, from: &remaining, adding: worlds)
      case "--uses" where allowsKind: uses = try Self.list(for: argument, from: &remaining, adding: uses)
      case "--force" where allowsForce: force = true
      case "--kind" where allowsKind:
        let text = try Self.value(for: argument, from: &remaining)
        guard let value = ScaffoldKind(rawValue: text) else {
          throw LinkGenError("'--kind' must be 'state' or 'service', not '\(text)'")
        }
        kind = value
      default:
        if argument.hasPrefix("-") { throw LinkGenError("unknown option '\(argument)'") }
        guard allowsPositional ?? allowsKind else { throw LinkGenError("unexpected argument '\(argument)'") }
        positional.append(argument)
      }
    }
  }

  /// `listed` and the names of a comma-separated value, each once, in order.
  private static func list(for option: String, from remaining: inout ArraySlice<String>, adding listed: [String])
    throws -> [String]
  {
    var names = listed
    for item in try value(for: option, from: &remaining).split(separator: ",") {
      let name = item.trimmingCharacters(in: .whitespaces)
      if !name.isEmpty, !names.contains(name) { names.append(name) }
    }
    return names
  }

  private static func value(for option: String, from remaining: inout ArraySlice<String>) throws -> String {
    guard let value = remaining.popFirst(), !value.hasPrefix("-") else {
      throw LinkGenError("'\(option)' needs a value")
    }
    return value
  }
}
