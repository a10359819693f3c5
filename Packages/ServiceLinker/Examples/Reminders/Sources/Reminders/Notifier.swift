import Foundation

/// The service that shows a notification: outside the process, so what it
/// did survives a crash of the app, and it can say whether a notification
/// sent under a key was shown.
public protocol Notifier: Sendable {
  /// Shows `title`; `key` is the same for every attempt at one notification.
  func deliver(_ title: String, key: String) async throws
  /// Whether a notification sent under `key` was shown.
  func wasDelivered(key: String) async throws -> Bool
}

/// A notifier that is never reached: for scenarios and the replay server, which send nothing.
public struct UnreachableNotifier: Notifier {
  /// The notifier.
  public init() {}

  public func deliver(_ title: String, key: String) async throws { throw NotifierUnreachable() }
  public func wasDelivered(key: String) async throws -> Bool { throw NotifierUnreachable() }
}

/// Why `UnreachableNotifier` refused.
public struct NotifierUnreachable: Error {}

/// Notifications as lines appended to a file (`<key>\t<title>`), each synced:
/// the stand-in for a phone's notification service that the SIGKILL test
/// counts. It shows what it is asked to, every time; sending once is the
/// store's work, not its.
public struct OutboxNotifier: Notifier {
  /// The outbox file.
  public let path: String

  /// A notifier appending to `path`.
  public init(path: String) { self.path = path }

  public func deliver(_ title: String, key: String) async throws {
    let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    defer { close(descriptor) }
    let line = Array("\(key)\t\(title)\n".utf8)
    let written = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    guard written == line.count, fsync(descriptor) == 0 else { throw POSIXError(.EIO) }
  }

  public func wasDelivered(key: String) async throws -> Bool {
    try lines().contains { $0.key == key }
  }

  /// Every notification shown, in order; a last line cut short is not one.
  public func lines() throws -> [(key: String, title: String)] {
    guard FileManager.default.fileExists(atPath: path) else { return [] }
    let text = try String(contentsOfFile: path, encoding: .utf8)
    return text.split(separator: "\n", omittingEmptySubsequences: true).dropLast(text.hasSuffix("\n") ? 0 : 1)
      .compactMap { line in
        let parts = line.split(separator: "\t", maxSplits: 1)
        return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
      }
  }
}
