import JournalIO

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A reader's view of a journal file as it stood at one point: its size is
/// at most `end`, and nothing past `end` is read, however much a writer
/// appends meanwhile. Every other file (the checkpoint index) is read as it is.
/// Readers that must agree with each other (`kiosk verify`, `reconcile`) each
/// read the live journal up to the one `end` taken when the command started.
final class CappedFileIO<Base: JournalFileIO>: JournalFileIO {
  private let base: Base
  private let path: String
  private let end: Int
  private var capped: Set<Int32> = []

  init(_ base: Base, path: String, end: Int) {
    self.base = base
    self.path = path
    self.end = end
  }

  func open(_ path: String, flags: Int32, mode: mode_t) -> Result<Int32, Errno> {
    let result = base.open(path, flags: flags, mode: mode)
    if case .success(let descriptor) = result, path == self.path { capped.insert(descriptor) }
    return result
  }

  func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int) -> Result<Int, Errno> {
    guard capped.contains(descriptor) else { return base.read(descriptor, into: buffer, at: offset) }
    let room = max(0, end - offset)
    guard room > 0 else { return .success(0) }
    return base.read(descriptor, into: UnsafeMutableRawBufferPointer(rebasing: buffer.prefix(room)), at: offset)
  }

  func write(_ descriptor: Int32, from buffer: UnsafeRawBufferPointer, at offset: Int) -> Result<Int, Errno> {
    base.write(descriptor, from: buffer, at: offset)
  }

  func synchronizeData(_ descriptor: Int32) -> Result<Void, Errno> { base.synchronizeData(descriptor) }
  func synchronize(_ descriptor: Int32) -> Result<Void, Errno> { base.synchronize(descriptor) }
  func truncate(_ descriptor: Int32, to size: Int) -> Result<Void, Errno> { base.truncate(descriptor, to: size) }
  func lockExclusively(_ descriptor: Int32) -> Result<Void, Errno> { base.lockExclusively(descriptor) }

  func size(_ descriptor: Int32) -> Result<Int, Errno> {
    guard capped.contains(descriptor) else { return base.size(descriptor) }
    return base.size(descriptor).map { min($0, end) }
  }

  func close(_ descriptor: Int32) {
    capped.remove(descriptor)
    base.close(descriptor)
  }

  func isRegularFile(_ descriptor: Int32) -> Bool { base.isRegularFile(descriptor) }
}
