import Foundation

/// Whether every folder linkgen writes is compiled by something: a folder of
/// `Generated/` only reaches a module through a symbolic link inside a package
/// (`Packages/Menu/Sources/Menu/Generated -> ../../../../Generated/Menu`). A
/// folder nothing links to is written but never built, so `check` says so,
/// with the link to make.
public struct GeneratedWiring {
  let root: URL

  /// Checks the tree under `root`.
  public init(root: URL) { self.root = root }

  /// The generated folders (`Generated/<Module>`) no symbolic link in the tree points to, sorted.
  public func unlinkedFolders(among folders: Set<String>) -> [String] {
    let generated = root.appendingPathComponent(Generator.outputFolder).standardizedFileURL.path
    var linked: Set<String> = []
    let manager = FileManager.default
    guard let enumerator = manager.enumerator(atPath: root.path) else { return folders.sorted() }
    while let relative = enumerator.nextObject() as? String {
      let name = (relative as NSString).lastPathComponent
      if name == ".build" || name == ".git" || relative.hasPrefix(Generator.outputFolder) {
        enumerator.skipDescendants()
        continue
      }
      guard enumerator.fileAttributes?[.type] as? FileAttributeType == .typeSymbolicLink,
        let destination = try? manager.destinationOfSymbolicLink(atPath: root.appendingPathComponent(relative).path)
      else { continue }
      let target = root.appendingPathComponent(relative).deletingLastPathComponent()
        .appendingPathComponent(destination).standardizedFileURL.path
      if target.hasPrefix(generated + "/") { linked.insert(String(target.dropFirst(generated.count + 1))) }
    }
    return folders.subtracting(linked).sorted()
  }
}
