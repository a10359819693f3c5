#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A JSON value as the replay protocol and the recordings carry it
/// (docs/replay.md): no floating-point numbers, so every value has exactly one
/// canonical text. Money and dates travel as strings.
public enum JSONValue: Equatable, Sendable {
  /// `null`.
  case null
  /// `true` or `false`.
  case bool(Bool)
  /// A whole number.
  case integer(Int)
  /// A string.
  case string(String)
  /// An array.
  case array([JSONValue])
  /// An object; its keys are written sorted, so their order here does not matter.
  case object([String: JSONValue])
}

extension JSONValue {
  /// Parses one JSON text strictly (`JSONParser`); the error is one line, with
  /// the path of the value when the text is JSON but not canonical.
  public static func parse(_ bytes: some Sequence<UInt8>) throws(CanonicalError) -> JSONValue {
    var parser = JSONParser(Array(bytes))
    return try parser.document()
  }
}

extension JSONValue {
  /// The canonical text: keys sorted by Unicode scalar values, no insignificant
  /// space, strings escaped only where JSON requires. One line: what the
  /// replay server answers.
  public var compactText: String { String(decoding: compactBytes, as: UTF8.self) }

  /// The canonical text's UTF-8 bytes, written as bytes: what a journal
  /// stores. Keys sort by their UTF-8 bytes, which is the order of their
  /// Unicode scalars.
  public var compactBytes: [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(64)
    writeCompact(to: &out)
    return out
  }

  /// The canonical text laid out for review: two spaces of indent, `": "`
  /// between a key and its value, and a newline at the end. What a recording holds.
  public var prettyText: String {
    var out: [UInt8] = []
    write(to: &out, indent: [])
    out.append(0x0A)
    return String(decoding: out, as: UTF8.self)
  }

  /// Writes the compact text into `out`.
  public func writeCompact(to out: inout [UInt8]) { write(to: &out, indent: nil) }

  /// One writer for both layouts: compact when `indent` is nil, laid out from `indent` otherwise.
  private func write(to out: inout [UInt8], indent: [UInt8]?) {
    switch self {
    case .null: out.append(contentsOf: "null".utf8)
    case .bool(let value): out.append(contentsOf: value ? "true".utf8 : "false".utf8)
    case .integer(let value): Self.writeInteger(value, to: &out)
    case .string(let value): Self.writeString(value, to: &out)
    case .array(let values):
      Self.writeContainer(
        open: UInt8(ascii: "["), close: UInt8(ascii: "]"), count: values.count, to: &out, indent: indent
      ) {
        index, out, inner in values[index].write(to: &out, indent: inner)
      }
    case .object(let members):
      // Sorting the pairs by the keys' bytes is sorting by their Unicode scalars.
      let sorted = members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
      Self.writeContainer(
        open: UInt8(ascii: "{"), close: UInt8(ascii: "}"), count: sorted.count, to: &out, indent: indent
      ) {
        index, out, inner in
        Self.writeString(sorted[index].key, to: &out)
        out.append(contentsOf: inner == nil ? ":".utf8 : ": ".utf8)
        sorted[index].value.write(to: &out, indent: inner)
      }
    }
  }

  private static func writeContainer(
    open: UInt8, close: UInt8, count: Int, to out: inout [UInt8], indent: [UInt8]?,
    element: (Int, inout [UInt8], [UInt8]?) -> Void
  ) {
    out.append(open)
    guard count > 0 else {
      out.append(close)
      return
    }
    let inner = indent.map { $0 + [0x20, 0x20] }
    for index in 0..<count {
      if index > 0 { out.append(UInt8(ascii: ",")) }
      if let inner {
        out.append(0x0A)
        out.append(contentsOf: inner)
      }
      element(index, &out, inner)
    }
    if let indent {
      out.append(0x0A)
      out.append(contentsOf: indent)
    }
    out.append(close)
  }

  /// Writes `value` in decimal into `out`, as the canonical form writes an
  /// integer: digits straight into the buffer, with no `String` made for them.
  @inlinable public static func writeInteger(_ value: Int, to out: inout [UInt8]) {
    if value < 0 { out.append(UInt8(ascii: "-")) }
    // The magnitude as unsigned, so `Int.min` has one too; its digits are
    // appended first to last, one byte each, which for the few digits of a
    // count or an amount costs less than building them elsewhere and copying.
    var rest = value.magnitude
    var place: UInt = 1
    while place <= rest / 10 { place &*= 10 }
    while true {
      out.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest / place))
      rest %= place
      if place == 1 { return }
      place /= 10
    }
  }

  /// Writes the bytes of `literal` into `out`: the fixed parts of a
  /// hand-written canonical text (`{"set":{"seconds":`), copied from the
  /// binary's own storage rather than walked as a `String`'s view.
  @inlinable public static func writeLiteral(_ literal: StaticString, to out: inout [UInt8]) {
    literal.withUTF8Buffer { out.append(contentsOf: $0) }
  }

  /// Writes `value` as a JSON string into `out`, escaped only where JSON requires.
  public static func writeString(_ value: String, to out: inout [UInt8]) {
    out.append(UInt8(ascii: "\""))
    // Most strings need no escape: copied whole, from their own storage when they have it.
    let copied = value.utf8.withContiguousStorageIfAvailable { bytes in
      guard !bytes.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
        return false
      }
      out.append(contentsOf: bytes)
      return true
    }
    if copied == true {
      out.append(UInt8(ascii: "\""))
      return
    }
    for byte in value.utf8 {
      switch byte {
      case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
      case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
      case 0x0A: out.append(contentsOf: #"\n"#.utf8)
      case 0x0D: out.append(contentsOf: #"\r"#.utf8)
      case 0x09: out.append(contentsOf: #"\t"#.utf8)
      case 0x08: out.append(contentsOf: #"\b"#.utf8)
      case 0x0C: out.append(contentsOf: #"\f"#.utf8)
      case ..<0x20:
        let hex = Array("0123456789abcdef".utf8)
        out.append(contentsOf: #"\u00"#.utf8)
        out.append(hex[Int(byte >> 4)])
        out.append(hex[Int(byte & 0xF)])
      default: out.append(byte)
      }
    }
    out.append(UInt8(ascii: "\""))
  }
}

/// A value that is not what the canonical form allows, with where it is.
public struct CanonicalError: Error, Equatable, Sendable, CustomStringConvertible {
  /// Where, as a path from the document's root (`state.tabs.open.1.lines[0]`); empty for the root.
  public var path: String
  /// What is wrong.
  public var reason: String

  /// Creates the error.
  public init(path: String, reason: String) {
    self.path = path
    self.reason = reason
  }

  public var description: String { path.isEmpty ? reason : "\(path): \(reason)" }
}
