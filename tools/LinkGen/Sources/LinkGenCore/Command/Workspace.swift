import Foundation

/// Where linkgen reads its manifest and writes `Generated/`.
public struct Workspace: Sendable {
  /// The manifest file.
  public var manifest: URL
  /// The repository root holding `Generated/` and `Packages/`.
  public var root: URL
  /// The manifest path as the user wrote it, for diagnostics.
  public var displayPath: String

  /// A workspace; `root` defaults to the manifest's folder.
  public init(manifestPath: String, root: String?) {
    manifest = URL(fileURLWithPath: manifestPath)
    self.root = root.map { URL(fileURLWithPath: $0) } ?? manifest.deletingLastPathComponent()
    displayPath = manifestPath
  }

  /// The manifest's text; a one-line error when it cannot be read.
  public func readManifestText() throws -> String {
    guard let data = FileManager.default.contents(atPath: manifest.path) else {
      throw LinkGenError("cannot read manifest '\(displayPath)'")
    }
    guard let text = String(validating: Array(data), as: UTF8.self) else {
      let location = Self.firstInvalidUTF8(in: Array(data))
      throw DiagnosticError([Diagnostic("the manifest is not UTF-8: the byte here is not valid", at: location)])
    }
    return text
  }

  /// The line and column (in characters) of the first byte that is not valid UTF-8.
  static func firstInvalidUTF8(in bytes: [UInt8]) -> SourceLocation {
    var lineStart = 0
    var line = 1
    var offset = 0
    while offset < bytes.count {
      let length = utf8SequenceLength(bytes, at: offset)
      guard length > 0 else { break }
      if bytes[offset] == UInt8(ascii: "\n") {
        line += 1
        lineStart = offset + 1
      }
      offset += length
    }
    let column = String(decoding: bytes[lineStart..<offset], as: UTF8.self).count + 1
    return SourceLocation(line: line, column: column)
  }

  /// The length of the valid UTF-8 sequence starting at `offset`, or 0 when it is invalid.
  private static func utf8SequenceLength(_ bytes: [UInt8], at offset: Int) -> Int {
    let lead = bytes[offset]
    let length: Int
    switch lead {
    case 0x00...0x7F: return 1
    case 0xC2...0xDF: length = 2
    case 0xE0...0xEF: length = 3
    case 0xF0...0xF4: length = 4
    default: return 0
    }
    guard offset + length <= bytes.count,
      String(validating: bytes[offset..<offset + length], as: UTF8.self) != nil
    else { return 0 }
    return length
  }

  /// The validated manifest.
  public func loadManifest() throws -> Manifest {
    try ManifestDecoder.decode(readManifestText())
  }
}
