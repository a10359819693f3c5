import Foundation

/// A fresh folder under the system's temporary directory, removed with
/// everything in it when the value goes away.
public final class TemporaryDirectory: Sendable {
  /// The folder.
  public let url: URL

  /// Creates `<tmp>/<prefix>-<uuid>`.
  public init(prefix: String = "test") throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  deinit { try? FileManager.default.removeItem(at: url) }

  /// The path of `name` inside the folder.
  public func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}
