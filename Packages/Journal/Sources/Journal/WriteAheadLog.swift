import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An append-only file of entries, one JSON document per line.
///
/// `~Copyable` because it owns a file descriptor: a duplicated handle would be a
/// bug, and the type system refuses it. Each `append` writes the whole line and
/// syncs it before returning. (The framed, checksummed format with recovery is
/// the crash-safe journal's work; this is the resource's shape.)
public struct WriteAheadLog: ~Copyable {
  private let descriptor: Int32
  /// Only regular files are synced; `/dev/null` (a throwaway journal) cannot be.
  private let isRegularFile: Bool
  /// The file this log appends to.
  public let path: String
  /// Entries appended through this handle.
  public private(set) var appendedCount = 0

  /// Opens (creating if needed) the log at `path` for appending.
  public init(path: String) throws(JournalError) {
    let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw .cannotOpen(path: path, errno: errno) }
    var status = stat()
    isRegularFile = fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
    self.descriptor = descriptor
    self.path = path
  }

  deinit { close(descriptor) }

  /// Encodes `entry` as one JSON line, writes it, and syncs it to disk.
  public mutating func append(_ entry: some Encodable) throws(JournalError) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    var line: Data
    do { line = try encoder.encode(entry) } catch { throw .unencodable(String(describing: error)) }
    line.append(UInt8(ascii: "\n"))
    try write(line)
    guard !isRegularFile || fsync(descriptor) == 0 else { throw .syncFailed(errno: errno) }
    appendedCount += 1
  }

  private func write(_ data: Data) throws(JournalError) {
    var failure: JournalError?
    data.withUnsafeBytes { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = Glibc.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          failure = .writeFailed(errno: errno)
          return
        }
        offset += written
      }
    }
    if let failure { throw failure }
  }

  /// Reads every entry of the log at `path`, in order.
  public static func entries<Entry: Decodable>(of type: Entry.Type, at path: String) throws(JournalError) -> [Entry] {
    guard let data = FileManager.default.contents(atPath: path) else { throw .cannotOpen(path: path, errno: ENOENT) }
    let decoder = JSONDecoder()
    var entries: [Entry] = []
    for (index, line) in data.split(separator: UInt8(ascii: "\n")).enumerated() {
      do { entries.append(try decoder.decode(Entry.self, from: Data(line))) } catch {
        throw .unreadable(line: index + 1, String(describing: error))
      }
    }
    return entries
  }
}

/// Why the journal could not do what was asked.
public enum JournalError: Error, Equatable, Sendable {
  /// `open` failed.
  case cannotOpen(path: String, errno: Int32)
  /// The entry could not be encoded.
  case unencodable(String)
  /// `write` failed.
  case writeFailed(errno: Int32)
  /// `fsync` failed: the entry may not be on disk.
  case syncFailed(errno: Int32)
  /// A line of the file is not an entry.
  case unreadable(line: Int, String)
}
