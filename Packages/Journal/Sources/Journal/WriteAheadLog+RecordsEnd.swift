import JournalIO

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension WriteAheadLog {
  /// Where the records of the journal at `path` end now, as a reader that
  /// takes no lock sees them: the place a later read `endingAt` stops at, so
  /// that it reads what was there now and nothing a writer appends after.
  ///
  /// A file's size is that place only when it ends with a record (or with a
  /// torn tail, which readers leave unread). A writer that writes space ahead
  /// (docs/journal.md, "Space ahead") appends into zeros below the size, so
  /// when the file ends in a zero byte the records are scanned, from the last
  /// checkpoint the index names, and the place is where the valid ones end.
  /// A file that cannot be read gives its size: the read that follows reports why.
  /// The returned place is always one the file reached when it was looked at.
  public static func recordsEnd(path: String, environment: Environment) -> Int {
    let io = environment.fileIO
    guard case .success(let descriptor) = io.open(path, flags: O_RDONLY | O_CLOEXEC | O_NONBLOCK, mode: 0) else {
      return 0
    }
    defer { io.close(descriptor) }
    guard io.isRegularFile(descriptor) else { return 0 }
    // A writer that closes cuts its zeros, so the file can shrink between two
    // looks at it: a size is returned only once a byte at its end confirms it.
    for _ in 0..<100 {
      guard case .success(let size) = io.size(descriptor) else { return 0 }
      guard size > JournalFormat.headerSize else { return size }
      guard let last = try? readRange(descriptor, from: size - 1, to: size, io: io), last.count == 1 else { continue }
      if last != [0] { return size }
      if let end = try? scannedEnd(descriptor, path: path, io: io) { return end }
    }
    guard case .success(let size) = io.size(descriptor) else { return 0 }
    return size
  }

  /// Where the valid records end, scanned from the last checkpoint the index names (or the start).
  private static func scannedEnd(_ descriptor: Int32, path: String, io: some JournalFileIO) throws(JournalError)
    -> Int
  {
    if let loaded = try loadFromCheckpoint(descriptor, path: path, io: io) { return loaded.base + loaded.scan.goodEnd }
    guard case .success(let size) = io.size(descriptor) else { throw .readFailed(Errno(EIO)) }
    return try LoadedFile(wholeFile: try readRange(descriptor, from: 0, to: size, io: io), path: path).scan.goodEnd
  }
}

extension WriteAheadLog where Environment == PosixJournalEnvironment {
  /// Where the records of the journal at `path` on the real file system end now
  /// (see `recordsEnd(path:environment:)`).
  public static func recordsEnd(path: String) -> Int { recordsEnd(path: path, environment: PosixJournalEnvironment()) }
}
