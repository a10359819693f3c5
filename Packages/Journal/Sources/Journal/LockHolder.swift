import JournalIO

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Who holds a file's `flock`, for the "locked" message. Linux tells through
/// `/proc/locks` (`1: FLOCK  ADVISORY  WRITE 4242 08:01:1234 0 EOF`; a waiter's
/// line reads `1: -> FLOCK …` and is skipped); elsewhere,
/// or when the file cannot be read, nobody is named.
enum LockHolder {
  /// The pid of a process holding a lock on the file open at `descriptor`.
  static func process(holding descriptor: Int32) -> Int32? {
    #if os(Linux)
      var status = stat()
      guard fstat(descriptor, &status) == 0, let table = try? readProcLocks() else { return nil }
      let inode = String(status.st_ino)
      for line in table.split(separator: "\n") {
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        // "N:" "FLOCK" "ADVISORY" "WRITE" pid "maj:min:inode" start end; a "->" marks a waiter.
        guard fields.count >= 6, fields[1] == "FLOCK", let pid = Int32(fields[4]),
          fields[5].split(separator: ":").last.map(String.init) == inode
        else { continue }
        return pid
      }
      return nil
    #else
      return nil
    #endif
  }

  #if os(Linux)
    private static func readProcLocks() throws -> String {
      let descriptor = open("/proc/locks", O_RDONLY | O_CLOEXEC)
      guard descriptor >= 0 else { throw Errno(errno) }
      defer { close(descriptor) }
      var bytes: [UInt8] = []
      var chunk = [UInt8](repeating: 0, count: 65_536)
      while true {
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count <= 0 { break }
        bytes.append(contentsOf: chunk[..<count])
      }
      return String(decoding: bytes, as: UTF8.self)
    }
  #endif
}
