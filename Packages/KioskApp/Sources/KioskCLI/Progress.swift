#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Progress of a long read on standard error, when standard error is a
/// terminal: one line redrawn in place (`verify: 41% of 182.0 MB`), at most
/// ten times a second, erased when done. Nothing at all otherwise (pipes,
/// files, `--json`), so scripts and golden files never see it.
final class ProgressLine {
  private let what: String
  private let enabled: Bool
  private var lastDraw = Date.distantPast
  private var drawn = false

  init(what: String, enabled: Bool) {
    self.what = what
    self.enabled = enabled && isatty(STDERR_FILENO) == 1
  }

  /// Bytes read so far of `total`: what the journal's streaming read reports.
  func update(_ done: Int, _ total: Int) {
    guard enabled, total > 4 << 20 else { return }
    let now = Date()
    guard now.timeIntervalSince(lastDraw) >= 0.1 else { return }
    lastDraw = now
    let percent = Int(Double(done) / Double(max(total, 1)) * 100)
    let tenths = (total + 50_000) / 100_000
    writeAll("\r\(what): \(percent)% of \(tenths / 10).\(tenths % 10) MB".utf8, to: STDERR_FILENO)
    drawn = true
  }

  /// Erases the line.
  func finish() {
    guard drawn else { return }
    writeAll("\r\u{1B}[K".utf8, to: STDERR_FILENO)
    drawn = false
  }
}

/// Standard output for a command that prints as it goes: text is gathered
/// into 64 KiB writes, so streaming a long journal costs few system calls.
final class StandardOutput {
  private var buffer: [UInt8] = []

  init() { buffer.reserveCapacity(1 << 16) }

  func write(_ text: String) {
    buffer.append(contentsOf: text.utf8)
    if buffer.count >= 1 << 16 { flush() }
  }

  func flush() {
    guard !buffer.isEmpty else { return }
    writeAll(buffer, to: STDOUT_FILENO)
    buffer.removeAll(keepingCapacity: true)
  }
}
