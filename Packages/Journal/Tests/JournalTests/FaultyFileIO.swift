import Foundation
import Journal
import JournalIO

/// The real system calls, with faults a test can arm: the seam's test link.
final class FaultyFileIO: JournalFileIO {
  private let real = PosixFileIO()
  /// The next `fdatasync` fails with this errno.
  var failNextSync: Errno?
  /// Each `pwrite` writes at most this many bytes (a short write).
  var writeLimit: Int?
  /// After this many more bytes are written, writes fail with the errno (ENOSPC).
  var failWritesAfter: (bytes: Int, errno: Errno)?
  /// A `pwrite` of more than this many bytes fails with ENOSPC (a disk with less room than it asks for).
  var refuseWritesOver: Int?
  /// The next this-many `pwrite` and `pread` calls fail with EINTR first.
  var interruptions = 0
  /// Calls seen.
  private(set) var syncCount = 0
  private(set) var writeCount = 0

  func open(_ path: String, flags: Int32, mode: mode_t) -> Result<Int32, Errno> {
    real.open(path, flags: flags, mode: mode)
  }

  func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int) -> Result<Int, Errno> {
    if interruptions > 0 {
      interruptions -= 1
      return .failure(Errno(EINTR))
    }
    return real.read(descriptor, into: buffer, at: offset)
  }

  func write(_ descriptor: Int32, from buffer: UnsafeRawBufferPointer, at offset: Int) -> Result<Int, Errno> {
    writeCount += 1
    if interruptions > 0 {
      interruptions -= 1
      return .failure(Errno(EINTR))
    }
    if let limit = refuseWritesOver, buffer.count > limit { return .failure(Errno(ENOSPC)) }
    var count = min(buffer.count, writeLimit ?? buffer.count)
    if let (remaining, errno) = failWritesAfter {
      if remaining == 0 { return .failure(errno) }
      count = min(count, remaining)
      failWritesAfter = (remaining - count, errno)
    }
    return real.write(descriptor, from: UnsafeRawBufferPointer(rebasing: buffer[0..<count]), at: offset)
  }

  func synchronizeData(_ descriptor: Int32) -> Result<Void, Errno> {
    syncCount += 1
    if let errno = failNextSync {
      failNextSync = nil
      return .failure(errno)
    }
    return real.synchronizeData(descriptor)
  }

  func synchronize(_ descriptor: Int32) -> Result<Void, Errno> { real.synchronize(descriptor) }
  func truncate(_ descriptor: Int32, to size: Int) -> Result<Void, Errno> { real.truncate(descriptor, to: size) }
  func lockExclusively(_ descriptor: Int32) -> Result<Void, Errno> { real.lockExclusively(descriptor) }
  func size(_ descriptor: Int32) -> Result<Int, Errno> { real.size(descriptor) }
  func close(_ descriptor: Int32) { real.close(descriptor) }
}

/// A journal environment whose system calls are a `FaultyFileIO`: the fault
/// tests' substitution, one stored property in place of the Posix link.
struct FaultyEnvironment: HasJournalIO {
  let fileIO: FaultyFileIO
}

extension WriteAheadLog where Environment == FaultyEnvironment {
  /// Opens the journal at `path` on `io`.
  init(path: String, io: FaultyFileIO) throws(JournalError) {
    try self.init(path: path, environment: FaultyEnvironment(fileIO: io))
  }
}
