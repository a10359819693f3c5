#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The system calls the journal makes: the seam where tests inject faults.
///
/// `WriteAheadLog` is generic over it, so the choice is made at compile time
/// (production links `PosixFileIO`; fault tests link their own) and costs
/// nothing once specialized. Every method returns what the system call
/// returned, with the error number on failure, and never retries by itself.
public protocol JournalFileIO {
  /// `open(2)`: a descriptor, or the errno.
  func open(_ path: String, flags: Int32, mode: mode_t) -> Result<Int32, Errno>
  /// `pread(2)`: bytes read into `buffer` at `offset` (0 at end of file).
  func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int) -> Result<Int, Errno>
  /// `pwrite(2)`: bytes written from `buffer` at `offset` (may be fewer than asked).
  func write(_ descriptor: Int32, from buffer: UnsafeRawBufferPointer, at offset: Int) -> Result<Int, Errno>
  /// `fdatasync(2)`.
  func synchronizeData(_ descriptor: Int32) -> Result<Void, Errno>
  /// `fsync(2)`, used on directories after creating a file in them.
  func synchronize(_ descriptor: Int32) -> Result<Void, Errno>
  /// `ftruncate(2)`.
  func truncate(_ descriptor: Int32, to size: Int) -> Result<Void, Errno>
  /// `flock(2)` with `LOCK_EX | LOCK_NB`.
  func lockExclusively(_ descriptor: Int32) -> Result<Void, Errno>
  /// `fstat(2)`: the file's size.
  func size(_ descriptor: Int32) -> Result<Int, Errno>
  /// `close(2)`.
  func close(_ descriptor: Int32)
  /// `fstat(2)`: whether the descriptor is a regular file (not a device, FIFO or directory).
  func isRegularFile(_ descriptor: Int32) -> Bool
}

extension JournalFileIO {
  /// `fstat(2)`'s file type, from the real system call: no fault to inject here.
  public func isRegularFile(_ descriptor: Int32) -> Bool {
    var status = stat()
    return fstat(descriptor, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
  }

  /// Whether `path` names the file open on `descriptor` (same device and
  /// inode), from the real system calls.
  public func isFile(_ descriptor: Int32, at path: String) -> Bool {
    var open = stat()
    var named = stat()
    return fstat(descriptor, &open) == 0 && stat(path, &named) == 0 && open.st_dev == named.st_dev
      && open.st_ino == named.st_ino
  }
}

/// An `errno` value.
public struct Errno: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
  /// The number.
  public var code: Int32

  /// Wraps a number.
  public init(_ code: Int32) { self.code = code }

  /// The current thread's `errno`.
  public static var current: Errno { Errno(errno) }

  /// `strerror`'s text, lowercased like the rest of our messages.
  public var description: String { String(cString: strerror(code)).lowercased() }
}

/// The real system calls.
public struct PosixFileIO: JournalFileIO, Sendable {
  /// Creates the seam.
  public init() {}

  /// `open(2)`.
  public func open(_ path: String, flags: Int32, mode: mode_t) -> Result<Int32, Errno> {
    #if canImport(Glibc)
      let descriptor = Glibc.open(path, flags, mode)
    #elseif canImport(Musl)
      let descriptor = Musl.open(path, flags, mode)
    #elseif canImport(Darwin)
      let descriptor = Darwin.open(path, flags, mode)
    #endif
    return descriptor >= 0 ? .success(descriptor) : .failure(.current)
  }

  /// `pread(2)`.
  public func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int) -> Result<
    Int, Errno
  > {
    let count = pread(descriptor, buffer.baseAddress, buffer.count, off_t(offset))
    return count >= 0 ? .success(count) : .failure(.current)
  }

  /// `pwrite(2)`.
  public func write(_ descriptor: Int32, from buffer: UnsafeRawBufferPointer, at offset: Int) -> Result<Int, Errno> {
    let count = pwrite(descriptor, buffer.baseAddress, buffer.count, off_t(offset))
    return count >= 0 ? .success(count) : .failure(.current)
  }

  /// `fdatasync(2)`; on Darwin, `fcntl(F_FULLFSYNC)`, since its `fsync` does not reach the disk.
  public func synchronizeData(_ descriptor: Int32) -> Result<Void, Errno> {
    #if canImport(Darwin)
      fcntl(descriptor, F_FULLFSYNC) != -1 ? .success(()) : .failure(.current)
    #else
      fdatasync(descriptor) == 0 ? .success(()) : .failure(.current)
    #endif
  }

  /// `fsync(2)`.
  public func synchronize(_ descriptor: Int32) -> Result<Void, Errno> {
    fsync(descriptor) == 0 ? .success(()) : .failure(.current)
  }

  /// `ftruncate(2)`.
  public func truncate(_ descriptor: Int32, to size: Int) -> Result<Void, Errno> {
    ftruncate(descriptor, off_t(size)) == 0 ? .success(()) : .failure(.current)
  }

  /// `flock(2)`, exclusive and non-blocking.
  public func lockExclusively(_ descriptor: Int32) -> Result<Void, Errno> {
    flock(descriptor, LOCK_EX | LOCK_NB) == 0 ? .success(()) : .failure(.current)
  }

  /// `fstat(2)`'s size.
  public func size(_ descriptor: Int32) -> Result<Int, Errno> {
    var status = stat()
    return fstat(descriptor, &status) == 0 ? .success(Int(status.st_size)) : .failure(.current)
  }

  /// `close(2)`.
  public func close(_ descriptor: Int32) {
    #if canImport(Glibc)
      _ = Glibc.close(descriptor)
    #elseif canImport(Musl)
      _ = Musl.close(descriptor)
    #elseif canImport(Darwin)
      _ = Darwin.close(descriptor)
    #endif
  }
}
