#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The path arithmetic a till's files need (an archive beside its journal, a
/// file's name in a message), done on the text as `NSString`'s and `URL`'s
/// path methods do it for such paths, so the command path never loads
/// Foundation's `NSString` or `URL` and all they bring (README, "Install";
/// `URL.standardizedFileURL` alone cost a command about 380,000 instructions).
public enum PathNames {
  /// `path` made absolute against the working directory, with `.`, `..` and
  /// repeated or trailing slashes taken out, on the text alone: no link is
  /// followed (`URL(fileURLWithPath:).standardizedFileURL.path`). `..` at
  /// the root stays at the root.
  /// With no working directory (it was removed), a relative path stays
  /// relative, cleaned the same way: the system then refuses it, rather than
  /// the root standing in for the folder that is gone.
  public static func standardized(_ path: String) -> String {
    let absolute = absolute(path) ?? path
    var parts: [Substring] = []
    for part in absolute.split(separator: "/") {
      if part == "." { continue }
      if part == ".." {
        if !parts.isEmpty { parts.removeLast() }
        continue
      }
      parts.append(part)
    }
    let cleaned = parts.joined(separator: "/")
    return absolute.hasPrefix("/") ? "/" + cleaned : cleaned.isEmpty ? "." : cleaned
  }

  /// `path` against the working directory when it is relative; nil when the
  /// working directory cannot be read (removed, say).
  public static func absolute(_ path: String) -> String? {
    path.hasPrefix("/") ? path : currentDirectory().map { joining($0, path) }
  }

  /// The process's working directory; nil when it cannot be read (removed, say).
  private static func currentDirectory() -> String? {
    guard let directory = getcwd(nil, 0) else { return nil }
    defer { free(directory) }
    return String(cString: directory)
  }

  /// The last component: `a/b.journal` is `b.journal`, trailing slashes aside
  /// (`a/b/` is `b`); slashes alone are `/`, and an empty path is empty.
  public static func lastComponent(of path: String) -> String {
    guard let end = path.lastIndex(where: { $0 != "/" }) else { return path.isEmpty ? "" : "/" }
    let trimmed = path[...end]
    guard let slash = trimmed.lastIndex(of: "/") else { return String(trimmed) }
    return String(trimmed[trimmed.index(after: slash)...])
  }

  /// The folder part of `path`: what comes before its last slash, `/` for a
  /// file at the root, and empty for a bare file name (which Foundation
  /// 6.3.1's `deletingLastPathComponent` traps on, on Linux).
  public static func folder(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "" }
    let folder = String(path[..<slash])
    return folder.isEmpty ? "/" : folder
  }

  /// `name` in `folder`, one slash between them; `name` alone when `folder` is empty.
  public static func joining(_ folder: String, _ name: String) -> String {
    folder.isEmpty ? name : folder.hasSuffix("/") ? folder + name : folder + "/" + name
  }
}
