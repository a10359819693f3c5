import Foundation

/// `linkgen init`: writes a starter repository into an empty folder (see
/// `StarterTemplates`), then generates `Generated/`. All or nothing: on any
/// failure, everything it wrote is removed.
public struct StarterScaffolder {
  let root: URL
  let name: String
  let dependency: StarterDependency

  /// A scaffolder for the folder `root`; `name` is the umbrella package's name,
  /// `dependency` the Service Linker repository the starter depends on.
  public init(root: URL, name: String, dependency: StarterDependency) {
    self.root = root
    self.name = name
    self.dependency = dependency
  }

  /// Writes the starter; returns the paths it wrote, relative to the root, sorted.
  public func write() throws -> [String] {
    if let problem = SwiftIdentifier.problem(with: name) { throw LinkGenError("'--name': \(problem)") }
    // Asked before anything is made: a tag the URL lacks leaves no folder behind.
    try dependency.requireTag()
    let manager = FileManager.default
    // The topmost folder this init makes, if any: a failure removes it, so no
    // empty folders are left behind. A name counts as there even as a dangling link.
    let isThere = { (url: URL) in (try? manager.attributesOfItem(atPath: url.path)) != nil }
    var madeFolder: URL?
    var probe = root.standardizedFileURL
    while !isThere(probe), probe.path != "/" {
      madeFolder = probe
      probe = probe.deletingLastPathComponent()
    }
    do {
      try manager.createDirectory(at: root, withIntermediateDirectories: true)
    } catch {
      if let madeFolder { try? manager.removeItem(at: madeFolder) }
      throw LinkGenError("'--root': \(LinkGenCommand.reason(for: error))")
    }
    let taken = ["codegen.yaml", "Package.swift", "Packages", Generator.outputFolder, "linkgen.mk", "Tests"].filter {
      isThere(root.appendingPathComponent($0))
    }
    guard taken.isEmpty else {
      throw LinkGenError(
        "'\(root.path)' already holds \(taken.joined(separator: ", ")); linkgen init starts a repository in an empty folder "
          + "(to add a domain to one, use 'linkgen new-domain')")
    }
    let templates = StarterTemplates(name: name, dependency: dependency, root: root.standardizedFileURL)
    var files: [String: String] = [
      "codegen.yaml": templates.manifest,
      "Package.swift": templates.rootPackage,
      "linkgen.mk": templates.makefileFragment,
      "Packages/App/Package.swift": templates.appPackage,
      "Packages/App/Sources/App/AppWorld.swift": templates.appWorld,
      "Packages/App/Tests/AppTests/AppWorldTests.swift": templates.appTest,
      "Packages/App/Tests/AppTests/AppTestWorld.swift": templates.testWorld,
      "Packages/App/Sources/AppFeatures/Counting.swift": StarterFeatureTemplates.feature,
      "Packages/App/Sources/AppFeatures/Counting+Durable.swift": StarterFeatureTemplates.durable,
      "Packages/App/Sources/app-replay/main.swift": StarterFeatureTemplates.replayServer,
      "Packages/App/Tests/AppFeaturesTests/CountingTests.swift": StarterFeatureTemplates.tests,
      "\(FeatureCheck.recordingsFolder)/counting/\(StarterFeatureTemplates.fixture).json": StarterFeatureTemplates
        .recording,
    ]
    // An existing Makefile or .gitignore is the user's: only the fragment is added.
    if !manager.fileExists(atPath: root.appendingPathComponent("Makefile").path) {
      files["Makefile"] = templates.makefile
    }
    if !manager.fileExists(atPath: root.appendingPathComponent(".gitignore").path) {
      files[".gitignore"] = templates.gitignore
    }
    var links = [
      "Packages/App/Sources/App/Generated": "../../../../\(Generator.outputFolder)/App",
      "Packages/App/Tests/AppTests/Generated": "../../../../\(Generator.outputFolder)/AppTests",
    ]
    for domain in [StarterTemplates.state, StarterTemplates.service] {
      for (path, text) in domain.files { files["Packages/\(domain.name)/\(path)"] = text }
      for (path, destination) in domain.links { links["Packages/\(domain.name)/\(path)"] = destination }
    }
    let manifest = try ManifestDecoder.decode(templates.manifest)
    // What a failure removes: each top-level file or folder written (none was there before).
    var created = Set(files.keys.map { String($0.split(separator: "/")[0]) }).sorted().map {
      root.appendingPathComponent($0)
    }
    do {
      try ScaffoldFiles.write(files, links: links, under: root)
      created.append(root.appendingPathComponent(Generator.outputFolder))
      let summary = try GeneratedTree(root: root).apply(Generator.files(for: manifest))
      return (files.keys + summary.written).sorted()
    } catch {
      if let madeFolder {
        try? manager.removeItem(at: madeFolder)
      } else {
        for url in created { try? manager.removeItem(at: url) }
      }
      throw (error as? LinkGenError)
        ?? LinkGenError("init failed and was rolled back: \(LinkGenCommand.reason(for: error))")
    }
  }
}
