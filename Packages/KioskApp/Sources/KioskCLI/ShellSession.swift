import KioskApp

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

/// `kiosk shell`: one writer for the whole session, commands from standard
/// input, one result line each (`history` and `help` print theirs in full). A refused command prints its error (text:
/// `error: …` as its result line; `--json`: an error object on stderr) and the
/// session goes on; a journal failure ends it with 74.
@MainActor
struct ShellSession {
  let context: CommandContext

  /// The longest line read; a longer one is refused as a whole.
  static let maxLineBytes = 65_536

  func run() async throws -> (any CommandOutput)? {
    _ = try await context.writer()  // take the lock for the session, and reconcile, before the first line
    var reader = LineReader(descriptor: 0, maxBytes: Self.maxLineBytes)
    while let line = reader.next() {
      do {
        let text = try line.get()
        var words = Self.words(of: text)
        var all = false
        // Only a word starting with '-' can be an option (or the `--` that ends them).
        if words.contains(where: { $0.utf8.first == UInt8(ascii: "-") }) { (words, all) = try optionFree(words) }
        guard !words.isEmpty else { continue }
        // The arguments are what follows the name, in the same buffer.
        let spec = try CommandSpec.named(words.removeFirst())
        let sessionAll = context.options.all
        context.options.all = sessionAll || all
        defer { context.options.all = sessionAll }
        guard spec.access != .own || spec.name == "help" else {
          throw KioskFailure.usage("'\(spec.name)' is not available in the shell")
        }
        if let output = try await spec.run(context, try spec.checked(words, all: all)) {
          // One line through C's stdout, which `print` shares: `print` would box and format it first.
          puts(context.options.json ? jsonLine(output) : output.shellLine)
        }
      } catch {
        if let withOutput = error as? OutputFailure {
          print(context.options.json ? jsonLine(withOutput.output) : withOutput.output.shellLine)
        }
        let failure = KioskFailure(error)
        if failure.code == .journal || failure.code == .software { throw failure }
        if context.options.json {
          printText(jsonLine(ErrorOutput(error: failure.message, exitCode: failure.code.rawValue)))
        } else {
          print("error: \(OneLine.escaped(failure.message.replacing("\n", with: " | ")))")
        }
      }
      StandardStreams.flush()
    }
    return nil
  }

  /// The words of a shell line's `tokens` after `--`, and whether it says
  /// `--all` (a command's own option, for that line); any other option is
  /// refused: options go on the kiosk command line.
  private func optionFree(_ tokens: [String]) throws -> (words: [String], all: Bool) {
    let parsed = try ParsedArguments(tokens)
    var others = parsed.options
    others.all = false
    guard others == GlobalOptions() else {
      throw KioskFailure.usage("options go on the kiosk command line, not on a shell line")
    }
    return (parsed.words, parsed.options.all)
  }

  /// The words of a shell line, split at spaces and tabs. Walked as bytes: a
  /// space or a tab is never part of a longer UTF-8 sequence, and walking
  /// Characters (grapheme clusters) cost a quarter of a shell command.
  static func words(of line: String) -> [String] {
    var words: [String] = []
    words.reserveCapacity(4)  // a command and its arguments, without growing
    var line = line
    line.withUTF8 { bytes in
      var start: Int?
      for index in 0...bytes.count {
        if index == bytes.count || bytes[index] == 0x20 || bytes[index] == 0x09 {
          // A word of a valid line ends before a space or a tab, so it is valid UTF-8 too.
          if let first = start {
            words.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[first..<index]), as: UTF8.self))
          }
          start = nil
        } else if start == nil {
          start = index
        }
      }
    }
    return words
  }
}

/// Lines from a file descriptor as bytes, checked as UTF-8 (never repaired),
/// with `\r\n` or `\n` endings, each at most `maxBytes` long.
struct LineReader {
  let descriptor: Int32
  let maxBytes: Int
  private var buffer: [UInt8] = []
  /// Where the unread bytes of `buffer` start: lines are handed out from here,
  /// and the bytes before it dropped only now and then, not once per line.
  private var start = 0
  private var atEnd = false

  init(descriptor: Int32, maxBytes: Int) {
    self.descriptor = descriptor
    self.maxBytes = maxBytes
  }

  /// The next line, a usage error for a line that is too long or not UTF-8, or nil at the end.
  mutating func next() -> Result<String, KioskFailure>? {
    var discarding = false
    while true {
      if let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
        var line = buffer[start..<newline]
        start = newline + 1
        if discarding || line.count > maxBytes { return .failure(.usage("a line is longer than \(maxBytes) bytes")) }
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        guard let text = Self.text(of: line) else { return .failure(.usage("a line is not valid UTF-8")) }
        return .success(text)
      }
      // Only a partial line is left: drop what was handed out before reading more.
      buffer.removeSubrange(..<start)
      start = 0
      if buffer.count > maxBytes {
        buffer.removeAll()
        discarding = true
      }
      if atEnd {
        guard !buffer.isEmpty || discarding else { return nil }
        buffer.append(UInt8(ascii: "\n"))
        continue
      }
      var chunk = [UInt8](repeating: 0, count: 16_384)
      let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if count < 0, errno == EINTR { continue }
      if count <= 0 { atEnd = true } else { buffer.append(contentsOf: chunk[..<count]) }
    }
  }

  /// `line` as text, nil when it is not valid UTF-8. An ASCII line, the
  /// common one, is valid as it stands: it skips the general validation,
  /// which is generic and most of the cost of reading a short line.
  static func text(of line: ArraySlice<UInt8>) -> String? {
    line.withUnsafeBufferPointer { bytes in
      bytes.allSatisfy { $0 < 0x80 }
        ? String(decoding: bytes, as: UTF8.self) : String(validating: bytes, as: UTF8.self)
    }
  }
}
