import Foundation

/// The repository's packages and their modules, `Packages/<package>/Sources/<module>`,
/// each folder listed once: what the perimeter check and the access map both walk.
struct SourceModules {
  /// One module folder.
  struct Module {
    /// The package folder under `Packages/`.
    var package: String
    /// The module's name (its folder under `Sources/`).
    var name: String
    /// Whether it holds a `main.swift` (an executable, not a library).
    var isExecutable: Bool
    /// Whether it is a test module (a folder under the package's `Tests/`).
    var isTest = false
    /// Whether it holds Swift sources (a C target or a system library's module map holds none).
    var isSwift = true

    /// Its folder, relative to the root: `Packages/<package>/Sources/<name>` or `…/Tests/<name>`.
    var folder: String { "Packages/\(package)/\(isTest ? "Tests" : "Sources")/\(name)" }
  }

  /// The package folders, sorted.
  let packages: [String]
  /// Their modules (library, executable and test), by package, sources before tests, then module.
  let modules: [Module]

  /// Lists the tree under `root`.
  init(root: URL) {
    let manager = FileManager.default
    let base = root.appendingPathComponent("Packages")
    packages = ((try? manager.contentsOfDirectory(atPath: base.path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
    var modules: [Module] = []
    for package in packages {
      for kind in ["Sources", "Tests"] {
        let sources = base.appendingPathComponent(package).appendingPathComponent(kind)
        for name in ((try? manager.contentsOfDirectory(atPath: sources.path)) ?? []).sorted() where !name.hasPrefix(".")
        {
          let folder = sources.appendingPathComponent(name)
          var isFolder: ObjCBool = false
          guard manager.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else { continue }
          let isExecutable = manager.fileExists(atPath: folder.appendingPathComponent("main.swift").path)
          modules.append(
            Module(
              package: package, name: name, isExecutable: isExecutable, isTest: kind == "Tests",
              isSwift: Self.holdsSwift(folder)))
        }
      }
    }
    self.modules = modules
  }

  /// Whether any file under `folder` is a `.swift` file.
  private static func holdsSwift(_ folder: URL) -> Bool {
    guard let files = FileManager.default.enumerator(atPath: folder.path) else { return false }
    while let file = files.nextObject() as? String {
      if file.hasSuffix(".swift") { return true }
    }
    return false
  }
}
