import Foundation

/// The Swift files a scaffolding command may read or edit, found the same way
/// by each: the tree under a root, `.build`, `.git` and `Generated/` aside.
enum SwiftFiles {
  /// The `.swift` files under `root`, `.build`, `.git` and `Generated/` aside.
  static func under(_ root: URL) -> [URL] {
    var found: [URL] = []
    guard let enumerator = FileManager.default.enumerator(atPath: root.path) else { return [] }
    while let relative = enumerator.nextObject() as? String {
      let name = (relative as NSString).lastPathComponent
      if name == ".build" || name == ".git" || relative == Generator.outputFolder {
        enumerator.skipDescendants()
        continue
      }
      guard name.hasSuffix(".swift"), enumerator.fileAttributes?[.type] as? FileAttributeType == .typeRegular
      else { continue }
      found.append(root.appendingPathComponent(relative))
    }
    return found.sorted { $0.path < $1.path }
  }
}
