import Foundation

/// The system-library targets of a root package (`.systemLibrary(name:path:pkgConfig:)`,
/// such as a libpq or libyaml wrapper) and the clang flags that find them: their
/// module maps, and the header folders `pkg-config --cflags` gives, as SwiftPM
/// passes them when it compiles a module that imports one. A module importing
/// a system library, directly or through another module, is read by
/// `symbolgraph-extract` only with these.
struct SystemLibraries {
  /// One system-library target.
  struct Library: Equatable {
    /// The target's (and its C module's) name.
    var name: String
    /// Its `module.modulemap`, absolute.
    var moduleMap: URL
    /// Its pkg-config name, when it has one.
    var pkgConfig: String?
  }

  /// The package's system libraries, by name.
  let libraries: [Library]

  /// The system libraries that `swift package dump-package` lists for the package
  /// at `root`; none when it has no manifest or the dump fails (the map then
  /// names each module it could not read, as before).
  init(root: URL) {
    libraries = PackageDump.json(of: root).map { Self.libraries(inDump: $0, root: root) } ?? []
  }

  /// The system targets of a `dump-package` JSON text, with paths made absolute under `root`.
  static func libraries(inDump data: Data, root: URL) -> [Library] {
    struct Dump: Decodable {
      struct Target: Decodable {
        var name: String
        var type: String
        var path: String?
        var pkgConfig: String?
      }
      var targets: [Target]
    }
    guard let dump = try? JSONDecoder().decode(Dump.self, from: data) else { return [] }
    return dump.targets.filter { $0.type == "system" }.map { target in
      let folder = root.appendingPathComponent(target.path ?? "Sources/\(target.name)")
      return Library(
        name: target.name, moduleMap: folder.appendingPathComponent("module.modulemap"), pkgConfig: target.pkgConfig)
    }
    .sorted { $0.name < $1.name }
  }

  /// The clang flags for every library: `-fmodule-map-file=` for each module map
  /// that exists, then each `pkg-config --cflags` flag (header folders) once.
  func clangFlags() -> [String] {
    var flags: [String] = []
    for library in libraries where FileManager.default.fileExists(atPath: library.moduleMap.path) {
      flags.append("-fmodule-map-file=\(library.moduleMap.path)")
    }
    for name in libraries.compactMap(\.pkgConfig) {
      guard let (status, output) = try? Toolchain.runForOutput("pkg-config", ["--cflags", name]), status == 0
      else { continue }
      for flag in output.split(whereSeparator: \.isWhitespace).map(String.init) where !flags.contains(flag) {
        flags.append(flag)
      }
    }
    return flags
  }
}
