import Foundation

/// Whether every folder linkgen writes is compiled by something: a folder of
/// `Generated/` only reaches a module through a symbolic link inside a package
/// (`Packages/Menu/Sources/Menu/Generated -> ../../../../Generated/Menu`). A
/// folder nothing links to is written but never built, so `check` says so,
/// with the link to make.
public struct GeneratedWiring {
  let root: URL
  let scan: RepositoryScan

  /// Checks the tree under `root`; `scan`, when given, is a walk of it made just before.
  public init(root: URL, scan: RepositoryScan? = nil) {
    self.root = root
    self.scan = scan ?? RepositoryScan(root: root)
  }

  /// The generated folders (`Generated/<Module>`) no symbolic link in the tree points to, sorted.
  public func unlinkedFolders(among folders: Set<String>) -> [String] {
    let generated = root.appendingPathComponent(Generator.outputFolder).standardizedFileURL.path
    var linked: Set<String> = []
    for link in scan.links {
      let target = root.appendingPathComponent(link.path).deletingLastPathComponent()
        .appendingPathComponent(link.destination).standardizedFileURL.path
      if target.hasPrefix(generated + "/") { linked.insert(String(target.dropFirst(generated.count + 1))) }
    }
    return folders.subtracting(linked).sorted()
  }
}
