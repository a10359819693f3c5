#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The replay protocol on a pair of file descriptors (docs/replay.md): one
/// request per line in, one answer per line out, in order. A malformed request
/// gets an error object and the server reads on; a line of nothing but JSON
/// whitespace is skipped. An app's replay executable is `ReplayServer(registry:).run()`.
public struct ReplayServer: Sendable {
  /// The features it answers for.
  public let registry: ReplayRegistry

  /// A server answering with `registry`.
  public init(registry: ReplayRegistry) { self.registry = registry }

  /// Reads requests from `input` until it ends and writes each answer to
  /// `output` whole, at once, so a driver can wait for it before sending the
  /// next request. Lines are handed over as bytes: invalid UTF-8 is the
  /// parser's to refuse, never repaired.
  public func run(input: Int32 = 0, output: Int32 = 1) {
    var pending: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = read(input, &chunk, chunk.count)
      if count < 0, errno == EINTR { continue }
      if count > 0 { pending += chunk[..<count] }
      var start = pending.startIndex
      while let newline = pending[start...].firstIndex(of: 0x0A) {
        answer(pending[start..<newline], to: output)
        start = newline + 1
      }
      pending.removeSubrange(..<start)
      if count <= 0 {
        answer(pending[...], to: output)
        return
      }
    }
  }

  private func answer(_ line: ArraySlice<UInt8>, to output: Int32) {
    guard !Self.isBlank(line) else { return }
    let bytes = Array((registry.answer(toLine: line) + "\n").utf8)
    var written = 0
    while written < bytes.count {
      let result = bytes[written...].withUnsafeBytes { write(output, $0.baseAddress, $0.count) }
      if result < 0, errno == EINTR { continue }
      guard result > 0 else { return }
      written += result
    }
  }

  /// JSON's whitespace: a line of nothing else is skipped, not answered.
  static func isBlank(_ line: ArraySlice<UInt8>) -> Bool {
    line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
  }
}
