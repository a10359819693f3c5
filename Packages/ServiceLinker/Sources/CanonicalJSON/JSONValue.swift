import Foundation

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
  public var compactText: String {
    var out = ""
    write(to: &out, indent: nil)
    return out
  }

  /// The canonical text laid out for review: two spaces of indent, `": "`
  /// between a key and its value, and a newline at the end. What a recording holds.
  public var prettyText: String {
    var out = ""
    write(to: &out, indent: "")
    return out + "\n"
  }

  private func write(to out: inout String, indent: String?) {
    switch self {
    case .null: out += "null"
    case .bool(let value): out += value ? "true" : "false"
    case .integer(let value): out += String(value)
    case .string(let value): Self.writeString(value, to: &out)
    case .array(let values):
      writeContainer(open: "[", close: "]", count: values.count, to: &out, indent: indent) { index, out, inner in
        values[index].write(to: &out, indent: inner)
      }
    case .object(let members):
      let keys = members.keys.sorted { $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars) }
      writeContainer(open: "{", close: "}", count: keys.count, to: &out, indent: indent) { index, out, inner in
        Self.writeString(keys[index], to: &out)
        out += inner == nil ? ":" : ": "
        members[keys[index]]!.write(to: &out, indent: inner)
      }
    }
  }

  private func writeContainer(
    open: String, close: String, count: Int, to out: inout String, indent: String?,
    element: (Int, inout String, String?) -> Void
  ) {
    out += open
    guard count > 0 else {
      out += close
      return
    }
    let inner = indent.map { $0 + "  " }
    for index in 0..<count {
      if index > 0 { out += "," }
      if let inner { out += "\n" + inner }
      element(index, &out, inner)
    }
    if let indent { out += "\n" + indent }
    out += close
  }

  private static func writeString(_ value: String, to out: inout String) {
    out += "\""
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      case "\u{08}": out += "\\b"
      case "\u{0C}": out += "\\f"
      case let control where control.value < 0x20:
        let hex = String(control.value, radix: 16)
        out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
      default: out.unicodeScalars.append(scalar)
      }
    }
    out += "\""
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
