import Foundation

/// Where a starter takes the Service Linker repository from: a git URL at a
/// tag (`linkgen init --url URL --version TAG`), or a folder on this machine
/// (`--framework DIR`), written relative to the starter so the repository can
/// be committed and cloned elsewhere. Either way the dependency is the
/// repository's root package, which exports the framework's libraries and the
/// `linkgen` executable the starter's Makefile builds.
public enum StarterDependency: Equatable, Sendable {
  /// A git URL and a semantic version that one of its tags names.
  case url(String, version: String)
  /// A folder holding the repository's root package.
  case folder(URL)

  /// The package identity SwiftPM gives the dependency, and so the `package:`
  /// of every `.product(name:package:)`: the last component of the URL or
  /// path, without `.git`, in lower case.
  public var identity: String {
    switch self {
    case .url(let url, _): Self.checkoutName(of: url).lowercased()
    // Resolved as `relativePath` resolves it: the path written is the link's target.
    case .folder(let folder): Self.checkoutName(of: folder.resolvingSymlinksInPath().lastPathComponent).lowercased()
    }
  }

  /// The folder SwiftPM checks a URL out into, under `.build/checkouts`: the URL's
  /// last component without `.git`, its case kept (the identity is lower case).
  var checkoutName: String {
    guard case .url(let url, _) = self else { return identity }
    return Self.checkoutName(of: url)
  }

  /// A URL's or path's last component (after the last `/` or `:`), without `.git`, case kept.
  static func checkoutName(of location: String) -> String {
    let trimmed = location.hasSuffix("/") ? String(location.dropLast()) : location
    let last = String(trimmed.split(whereSeparator: { $0 == "/" || $0 == ":" }).last ?? Substring(trimmed))
    return last.hasSuffix(".git") ? String(last.dropLast(4)) : last
  }

  /// The `.package(…)` declaration, for a manifest in `manifestFolder` of the starter rooted at `root`.
  func declaration(root: URL, manifestFolder: URL) -> String {
    switch self {
    case .url(let url, let version):
      return ".package(url: \"\(url)\", from: \"\(version)\")"
    case .folder(let folder):
      return ".package(path: \"\(Self.relativePath(from: manifestFolder, to: folder))\")"
    }
  }

  /// The framework package's folder (`Packages/ServiceLinker` of the dependency) as
  /// the starter's Makefile sees it from `root`: in SwiftPM's checkout for a URL.
  func frameworkFolder(root: URL) -> String {
    switch self {
    case .url: return ".build/checkouts/\(checkoutName)/Packages/ServiceLinker"
    case .folder(let folder): return Self.relativePath(from: root, to: folder) + "/Packages/ServiceLinker"
    }
  }

  /// `destination` relative to `base` (`../service-linker`), both resolved first.
  public static func relativePath(from base: URL, to destination: URL) -> String {
    let from = base.standardizedFileURL.resolvingSymlinksInPath().pathComponents
    let to = destination.standardizedFileURL.resolvingSymlinksInPath().pathComponents
    let shared = zip(from, to).prefix { $0 == $1 }.count
    let path = Array(repeating: "..", count: from.count - shared) + to[shared...]
    return path.isEmpty ? "." : path.joined(separator: "/")
  }

  /// A URL and tag as `init --url --version` takes them: refused, with the
  /// reason, when the URL could not stand in a manifest's string literal, is
  /// not a git URL SwiftPM fetches, or the tag is not a semantic version.
  public static func parse(url: String, version: String?) throws -> StarterDependency {
    guard let version else { throw LinkGenError("'--url' needs '--version TAG', the tag to start from") }
    let schemes = ["file://", "https://", "http://", "ssh://", "git://"]
    let scpLike = url.range(of: #"^[A-Za-z0-9._-]+@[A-Za-z0-9.-]+:[^/]"#, options: .regularExpression) != nil
    guard !url.isEmpty, schemes.contains(where: url.hasPrefix) || scpLike else {
      throw LinkGenError(
        "'--url': '\(url)' is not a git URL (file://, https://, ssh://, or user@host:path); "
          + "for a folder on this machine use '--framework DIR'")
    }
    guard url.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F && $0 != "\"" && $0 != "\\" }) else {
      throw LinkGenError("'--url': '\(url)' holds a space, a quote, a backslash or a character outside ASCII")
    }
    let semantic = #"^v?(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$"#
    guard version.range(of: semantic, options: .regularExpression) != nil else {
      throw LinkGenError(
        "'--version': '\(version)' is not a semantic version tag (like 1.2.0 or v1.2.0); SwiftPM resolves only those")
    }
    let bare = version.hasPrefix("v") ? String(version.dropFirst()) : version
    let dependency = StarterDependency.url(url, version: bare)
    if dependency.identity.isEmpty { throw LinkGenError("'--url': '\(url)' names no repository") }
    return dependency
  }

  /// The Service Linker repository in `given`, or the one this linkgen was built
  /// from. Refused unless its `Package.swift` is the root package that exports
  /// `linkgen` (the framework package alone does not: the starter builds linkgen
  /// from its dependency).
  public static func locate(folder given: String?) throws -> StarterDependency {
    if given?.isEmpty == true { throw LinkGenError("'--framework' needs a folder, not an empty name") }
    let folder =
      given.map { URL(fileURLWithPath: $0).standardizedFileURL }
      ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().standardizedFileURL
    let manifest = (try? String(contentsOf: folder.appendingPathComponent("Package.swift"), encoding: .utf8)) ?? ""
    guard manifest.contains("name: \"ServiceLinker\""), manifest.contains(".executable(name: \"linkgen\"") else {
      let enclosing = folder.deletingLastPathComponent().deletingLastPathComponent()
      let hint =
        manifest.contains("name: \"ServiceLinker\"")
        ? "; that is the framework package alone: pass the repository's root, '\(enclosing.path)'"
        : "; pass the root of the Service Linker repository"
      throw LinkGenError(
        "'--framework': '\(folder.path)' is not the Service Linker repository (no Package.swift named 'ServiceLinker' "
          + "that exports 'linkgen')\(hint)")
    }
    return .folder(folder)
  }

  /// Asks the URL's server, with `git ls-remote`, whether it has the tag:
  /// `init` refuses before it writes anything when it cannot be fetched.
  func requireTag() throws {
    guard case .url(let url, let version) = self else { return }
    // No prompt may wait at the terminal (a password, a host key), and a server
    // that never answers is given up after a while.
    let (status, text) = try Toolchain.run(
      "git", ["ls-remote", "--tags", "--refs", url],
      environment: ["GIT_TERMINAL_PROMPT": "0", "GIT_SSH_COMMAND": "ssh -o BatchMode=yes -o ConnectTimeout=15"],
      deadline: .seconds(60))
    guard status == 0 else {
      let lines = text.split(separator: "\n").map(String.init)
      let reason = lines.first { $0.hasPrefix("fatal:") } ?? lines.last ?? "git ls-remote failed"
      throw LinkGenError("'--url': could not list the tags of '\(url)': \(reason)")
    }
    let tags = Set(text.split(separator: "\n").compactMap { $0.split(separator: "refs/tags/").last.map(String.init) })
    guard tags.contains(version) || tags.contains("v\(version)") else {
      let known = tags.sorted().suffix(5).joined(separator: ", ")
      throw LinkGenError(
        "'--version': '\(url)' has no tag '\(version)'\(known.isEmpty ? " (it has no tags)" : "; its tags include \(known)")"
      )
    }
  }
}
