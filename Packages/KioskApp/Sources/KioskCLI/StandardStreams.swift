#if canImport(Glibc)
  @preconcurrency import Glibc
#elseif canImport(Musl)
  @preconcurrency import Musl
#elseif canImport(Darwin)
  @preconcurrency import Darwin
#endif

// `@preconcurrency`: C's `stdout` is a global the C library declares mutable;
// only the main actor touches it here.

/// The three standard streams as a command needs them.
enum StandardStreams {
  /// Opens `/dev/null` on each of descriptors 0, 1 and 2 that is closed. A
  /// file takes the lowest free descriptor: with standard output closed, the
  /// journal or the ledger would be descriptor 1, and every result printed
  /// would be written into it.
  static func openClosedOnes() {
    for descriptor: Int32 in 0...2 where fcntl(descriptor, F_GETFD) == -1 {
      // The lowest free descriptor is this one: those below it are open by now.
      let null = open("/dev/null", O_RDWR | O_CLOEXEC)
      guard null >= 0, null != descriptor else { continue }
      dup2(null, descriptor)
      close(null)
    }
  }

  /// Flushes standard output, so that a shell's answer reaches its reader at
  /// once: standard output alone, since standard error is unbuffered and
  /// flushing every stream (`fflush(nil)`) walks them all.
  static func flush() { fflush(stdout) }

  /// Flushes standard output; why, when what was printed could not all be
  /// written (a full disk, a closed pipe): the command ran, its answer is lost.
  static func flushOutput() -> KioskFailure? {
    let flushed = fflush(stdout) == 0
    let reason = flushed ? "" : ": \(String(cString: strerror(errno)).lowercased())"
    guard !flushed || ferror(stdout) != 0 else { return nil }
    return KioskFailure(
      code: .journal,
      message: "the result could not be written to standard output\(reason); the command itself ran "
        + "('kiosk board' shows the till)")
  }
}
