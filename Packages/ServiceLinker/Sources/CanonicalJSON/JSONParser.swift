/// Reads one JSON text into a `JSONValue`, strictly and in one pass: what
/// the canonical form allows and nothing else (docs/replay.md).
///
/// Foundation's decoders accept `10.0` and `5e0` as whole numbers, keep the
/// first of two equal keys, repair invalid UTF-8 and take time that grows with
/// depth times size for an untyped value; a contract other implementations
/// are checked against needs none of that, so this parser is small and ours.
struct JSONParser {
  /// The deepest nesting of arrays and objects accepted.
  static let maxDepth = 64

  // What the canonical form refuses, in the words `JSONValue(encoding:)` uses too.
  static let deeperThanMax = "nested deeper than \(maxDepth)"
  static let keysArePrintable = "keys are printable ASCII"
  static let numbersAreWhole = "numbers are whole: no fraction or exponent (money is in minor units: 450 for 4.50)"
  static let zeroIsZero = "zero is written 0, not -0"

  private let bytes: [UInt8]
  private var index = 0
  /// Where the value being read sits, outermost first: spelt out as a path
  /// only when something is wrong, so reading builds no string per value.
  private var trail: [Step] = []

  /// One step of a path: a member's key, or an element's index.
  private enum Step {
    case key(String)
    case index(Int)
  }

  /// The path of the value being read (`""` for the document, `a.b[2]`), with `step` after it.
  private func path(then step: Step? = nil) -> String {
    var path = ""
    for step in trail + (step.map { [$0] } ?? []) {
      switch step {
      case .key(let key): path = path.isEmpty ? key : "\(path).\(key)"
      case .index(let index): path += "[\(index)]"
      }
    }
    return path
  }

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  /// The one value the text holds, with nothing but whitespace around it.
  mutating func document() throws(CanonicalError) -> JSONValue {
    skipWhitespace()
    let value = try value(depth: 0)
    skipWhitespace()
    guard index == bytes.count else { throw syntax("more after the value") }
    return value
  }

  private func syntax(_ reason: String) -> CanonicalError {
    CanonicalError(path: "", reason: "not JSON: \(reason) at byte \(index)")
  }

  private var next: UInt8? { index < bytes.count ? bytes[index] : nil }

  private mutating func skipWhitespace() {
    while let byte = next, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
  }

  private mutating func expect(_ literal: String) throws(CanonicalError) {
    for byte in literal.utf8 {
      guard next == byte else { throw syntax("expected '\(literal)'") }
      index += 1
    }
  }

  private mutating func value(depth: Int) throws(CanonicalError) -> JSONValue {
    guard let byte = next else { throw syntax("a value was expected") }
    switch byte {
    case UInt8(ascii: "{"): return try object(depth: depth + 1)
    case UInt8(ascii: "["): return try array(depth: depth + 1)
    case UInt8(ascii: "\""): return .string(try string())
    case UInt8(ascii: "t"):
      try expect("true")
      return .bool(true)
    case UInt8(ascii: "f"):
      try expect("false")
      return .bool(false)
    case UInt8(ascii: "n"):
      try expect("null")
      return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .integer(try number())
    default: throw syntax("unexpected character")
    }
  }

  private mutating func object(depth: Int) throws(CanonicalError) -> JSONValue {
    guard depth <= Self.maxDepth else {
      throw CanonicalError(path: path(), reason: Self.deeperThanMax)
    }
    index += 1
    var members: [String: JSONValue] = [:]
    skipWhitespace()
    if next == UInt8(ascii: "}") {
      index += 1
      return .object(members)
    }
    while true {
      skipWhitespace()
      guard next == UInt8(ascii: "\"") else { throw syntax("a key (a string) was expected") }
      let key = try string()
      // Keys are ASCII: names, ids, ingredients and idempotency keys. Swift
      // compares strings by canonical equivalence, code points would not.
      guard key.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else {
        throw CanonicalError(path: path(then: .key(key)), reason: Self.keysArePrintable)
      }
      guard members[key] == nil else {
        throw CanonicalError(path: path(then: .key(key)), reason: "the key appears twice")
      }
      skipWhitespace()
      guard next == UInt8(ascii: ":") else { throw syntax("':' was expected") }
      index += 1
      skipWhitespace()
      trail.append(.key(key))
      members[key] = try value(depth: depth)
      trail.removeLast()
      skipWhitespace()
      switch next {
      case UInt8(ascii: ","): index += 1
      case UInt8(ascii: "}"):
        index += 1
        return .object(members)
      default: throw syntax("',' or '}' was expected")
      }
    }
  }

  private mutating func array(depth: Int) throws(CanonicalError) -> JSONValue {
    guard depth <= Self.maxDepth else {
      throw CanonicalError(path: path(), reason: Self.deeperThanMax)
    }
    index += 1
    var elements: [JSONValue] = []
    skipWhitespace()
    if next == UInt8(ascii: "]") {
      index += 1
      return .array(elements)
    }
    while true {
      skipWhitespace()
      trail.append(.index(elements.count))
      elements.append(try value(depth: depth))
      trail.removeLast()
      skipWhitespace()
      switch next {
      case UInt8(ascii: ","): index += 1
      case UInt8(ascii: "]"):
        index += 1
        return .array(elements)
      default: throw syntax("',' or ']' was expected")
      }
    }
  }

  /// A whole number: `0`, or digits not starting with 0, after an optional `-`.
  private mutating func number() throws(CanonicalError) -> Int {
    let start = index
    if next == UInt8(ascii: "-") { index += 1 }
    let digitsStart = index
    while let byte = next, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
    let digits = bytes[digitsStart..<index]
    guard !digits.isEmpty else { throw syntax("a digit was expected") }
    if let byte = next, byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
      throw CanonicalError(path: path(), reason: Self.numbersAreWhole)
    }
    guard digits.count == 1 || digits.first != UInt8(ascii: "0") else { throw syntax("a number starts with 0") }
    let text = String(decoding: bytes[start..<index], as: UTF8.self)
    guard text != "-0" else { throw CanonicalError(path: path(), reason: Self.zeroIsZero) }
    guard let number = Int(text) else {
      throw CanonicalError(path: path(), reason: "the number \(text) is too large")
    }
    return number
  }

  /// A string, its escapes decoded; raw control characters, lone surrogates
  /// and invalid UTF-8 are refused, never repaired.
  private mutating func string() throws(CanonicalError) -> String {
    index += 1
    var scalars = String.UnicodeScalarView()
    var runStart = index
    func flush(_ end: Int) throws(CanonicalError) {
      guard runStart < end else { return }
      guard let run = String(validating: bytes[runStart..<end], as: UTF8.self) else {
        throw CanonicalError(path: "", reason: "not JSON: a string is not valid UTF-8 at byte \(runStart)")
      }
      scalars.append(contentsOf: run.unicodeScalars)
    }
    while true {
      guard let byte = next else { throw syntax("a string is not closed") }
      switch byte {
      case UInt8(ascii: "\""):
        try flush(index)
        index += 1
        return String(scalars)
      case UInt8(ascii: "\\"):
        try flush(index)
        index += 1
        scalars.append(try escape())
        runStart = index
      case 0..<0x20: throw syntax("a control character must be escaped in a string")
      default: index += 1
      }
    }
  }

  private mutating func escape() throws(CanonicalError) -> Unicode.Scalar {
    guard let byte = next else { throw syntax("an escape is not finished") }
    index += 1
    switch byte {
    case UInt8(ascii: "\""): return "\""
    case UInt8(ascii: "\\"): return "\\"
    case UInt8(ascii: "/"): return "/"
    case UInt8(ascii: "b"): return "\u{08}"
    case UInt8(ascii: "f"): return "\u{0C}"
    case UInt8(ascii: "n"): return "\n"
    case UInt8(ascii: "r"): return "\r"
    case UInt8(ascii: "t"): return "\t"
    case UInt8(ascii: "u"):
      let high = try hex4()
      if (0xD800..<0xDC00).contains(high) {
        guard next == UInt8(ascii: "\\") else { throw syntax("a lone surrogate") }
        index += 1
        guard next == UInt8(ascii: "u") else { throw syntax("a lone surrogate") }
        index += 1
        let low = try hex4()
        guard (0xDC00..<0xE000).contains(low) else { throw syntax("a lone surrogate") }
        return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))!
      }
      guard let scalar = Unicode.Scalar(high) else { throw syntax("a lone surrogate") }
      return scalar
    default: throw syntax("an unknown escape")
    }
  }

  private mutating func hex4() throws(CanonicalError) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard let byte = next, let digit = Self.hexValue(byte) else { throw syntax("four hex digits were expected") }
      value = value << 4 | digit
      index += 1
    }
    return value
  }

  private static func hexValue(_ byte: UInt8) -> UInt32? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
    default: nil
    }
  }
}
