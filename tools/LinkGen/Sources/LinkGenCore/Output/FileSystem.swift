import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The few file operations the writer needs, as plain system calls.
///
/// Generated files are reproducible from the manifest, so they are written by
/// temp file + `rename` (a reader never sees half a file) without an `fsync`
/// per file; Foundation's atomic write syncs each one, which made a 1,000-domain
/// manifest three times slower.
enum FileSystem {
  /// The file's bytes, or nil when it cannot be read.
  static func contents(of path: String) -> [UInt8]? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { return nil }
    var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
    var offset = 0
    while offset < bytes.count {
      let count = bytes.withUnsafeMutableBytes { read(descriptor, $0.baseAddress! + offset, $0.count - offset) }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else { break }
      offset += count
    }
    return offset == bytes.count ? bytes : nil
  }

  /// Whether `bytes` are exactly the UTF-8 of `text`, compared with `memcmp`.
  static func same(_ bytes: [UInt8], _ text: String) -> Bool {
    var text = text
    return text.withUTF8 { utf8 in
      utf8.count == bytes.count
        && (utf8.isEmpty || bytes.withUnsafeBytes { memcmp($0.baseAddress!, utf8.baseAddress!, utf8.count) == 0 })
    }
  }

  /// Writes `bytes` to `path` through a temp file in the same folder and a rename.
  static func replace(_ path: String, with bytes: [UInt8]) throws {
    let temporary = path + ".linkgen-\(getpid())"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { throw LinkGenError("cannot write '\(path)': \(String(cString: strerror(errno)))") }
    var offset = 0
    while offset < bytes.count {
      let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
      if count < 0, errno == EINTR { continue }
      guard count > 0 else {
        let reason = String(cString: strerror(errno))
        close(descriptor)
        unlink(temporary)
        throw LinkGenError("cannot write '\(path)': \(reason)")
      }
      offset += count
    }
    close(descriptor)
    guard rename(temporary, path) == 0 else {
      let reason = String(cString: strerror(errno))
      unlink(temporary)
      throw LinkGenError("cannot write '\(path)': \(reason)")
    }
  }
}
