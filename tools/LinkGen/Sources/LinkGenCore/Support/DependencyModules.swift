import Foundation

/// The modules the packages a repository depends on declare. SwiftPM requires
/// every target name to be unique across the whole build graph, used or not: a
/// domain named like one (a `Stock` beside a dependency's `Stock`) breaks every
/// build, `remove-domain`'s included, so `new-domain` refuses such a name first.
struct DependencyModules {
  /// Module name → the identity of the package declaring it.
  let owners: [String: String]

  /// The modules of `root`'s dependencies, from `swift package dump-package` of
  /// the root and of each dependency's folder (a path, or SwiftPM's checkout of a
  /// URL under `.build/checkouts`; one not checked out yet is not read). None when
  /// the root manifest declares no dependency, without running SwiftPM at all.
  init(root: URL) {
    let manifest = (try? String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)) ?? ""
    guard manifest.contains(".package(") else {
      owners = [:]
      return
    }
    var owners: [String: String] = [:]
    for (identity, folder) in Self.dependencyFolders(of: root) {
      guard let dump = Self.dump(folder) else { continue }
      for target in dump.targets { owners[target.name] = owners[target.name] ?? identity }
    }
    self.owners = owners
  }

  /// The dump-package JSON this reads.
  private struct Dump: Decodable {
    struct Target: Decodable { var name: String }
    struct Dependency: Decodable {
      struct Location: Decodable {
        struct Remote: Decodable { var urlString: String }
        var local: [String]?
        var remote: [Remote]?
      }
      struct SourceControl: Decodable {
        var identity: String
        var location: Location
      }
      struct FileSystem: Decodable {
        var identity: String
        var path: String
      }
      var sourceControl: [SourceControl]?
      var fileSystem: [FileSystem]?
    }
    var targets: [Target]
    var dependencies: [Dependency]?
  }

  /// The manifest in `folder`, decoded.
  private static func dump(_ folder: URL) -> Dump? {
    PackageDump.json(of: folder).flatMap { try? JSONDecoder().decode(Dump.self, from: $0) }
  }

  /// Each dependency of the root: its identity and the folder holding its manifest.
  private static func dependencyFolders(of root: URL) -> [(String, URL)] {
    guard let dump = dump(root) else { return [] }
    var folders: [(String, URL)] = []
    for dependency in dump.dependencies ?? [] {
      for local in dependency.fileSystem ?? [] {
        folders.append((local.identity, URL(fileURLWithPath: local.path, relativeTo: root)))
      }
      for remote in dependency.sourceControl ?? [] {
        let location = remote.location.local?.first ?? remote.location.remote?.first?.urlString ?? ""
        let checkout = root.appendingPathComponent(".build/checkouts/\(StarterDependency.checkoutName(of: location))")
        if FileManager.default.fileExists(atPath: checkout.appendingPathComponent("Package.swift").path) {
          folders.append((remote.identity, checkout))
        }
      }
    }
    return folders
  }

  /// Why a domain may not be called `name`: a module it would add (`Name`,
  /// `NameTests`, `NameTesting`) is a dependency's already; nil when none is.
  func problem(with name: String) -> String? {
    for module in [name, "\(name)Tests", "\(name)Testing"] {
      if let owner = owners[module] {
        return "'\(module)' is already a module of the package '\(owner)' this repository depends on, and SwiftPM "
          + "needs module names unique across the build; choose another name (like 'Shop\(name)')"
      }
    }
    return nil
  }
}
