#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Reads JSON in exactly the form `JournalJSONWriter` writes it (the journal's
/// `JSONEncoder`, sorted keys, no whitespace): the mirror of the writer, for
/// entries that read their own bytes (`JournalDecodable`). Every read answers
/// nil, moving nothing, on anything it does not read exactly, and the entry
/// then leaves the bytes to `JSONDecoder`: reading by hand is a shortcut,
/// never a second dialect.
public struct JournalJSONReader {
  /// The bytes; indices are theirs (a slice's start need not be 0).
  public let bytes: ArraySlice<UInt8>
  /// The next byte to read.
  public var index: Int

  /// A reader at the start of `bytes`.
  public init(_ bytes: ArraySlice<UInt8>) {
    self.bytes = bytes
    index = bytes.startIndex
  }

  /// A reader of `bytes` from `index`.
  public init(_ bytes: ArraySlice<UInt8>, at index: Int) {
    self.bytes = bytes
    self.index = index
  }

  /// Whether every byte has been read.
  public var isAtEnd: Bool { index == bytes.endIndex }

  /// Reads `text` when it comes next.
  // Always inlined: a reader tries one literal after another, and as calls
  // they cost each replayed record about 700 instructions (callgrind,
  // `kiosk open` late in a day).
  @inlinable @inline(__always) public mutating func literal(_ text: StaticString) -> Bool {
    let count = text.utf8CodeUnitCount
    guard index + count <= bytes.endIndex else { return false }
    let matches = text.withUTF8Buffer { expected in
      for offset in 0..<count where bytes[index + offset] != expected[offset] { return false }
      return true
    }
    if matches { index += count }
    return matches
  }

  /// Reads `"name":` when it comes next.
  // Always inlined, as `literal` is: as a call it cost each replayed record about 200 instructions.
  @inlinable @inline(__always) public mutating func key(_ name: StaticString) -> Bool {
    let start = index
    guard literal("\""), literal(name), literal("\":") else {
      index = start
      return false
    }
    return true
  }

  /// Reads `,"name":` (a key after another) when it comes next.
  @inlinable public mutating func nextKey(_ name: StaticString) -> Bool {
    let start = index
    guard literal(","), key(name) else {
      index = start
      return false
    }
    return true
  }

  /// An integer as the encoder writes one: an optional minus, digits, no
  /// leading zero, and no fraction or exponent after them.
  public mutating func int() -> Int? {
    guard let whole = integerPart(),
      // `Int.min`'s magnitude is one past `Int.max`.
      whole.value <= (whole.negative ? UInt64(Int.min.magnitude) : UInt64(Int.max)),
      // A fraction or an exponent makes it another number (`12e3` is 12000): the decoder's.
      !isByte(at: whole.end, ".") && !isExponent(at: whole.end)
    else { return nil }
    index = whole.end
    return whole.negative ? Int(truncatingIfNeeded: 0 &- whole.value) : Int(whole.value)
  }

  /// A JSON number's integer part from `index`: an optional minus, then
  /// digits with no leading zero; nil when there are none or they overflow
  /// 64 bits. `end` is where it stops; nothing is read. Always inlined: the
  /// tuple it returns cost `int()`, read for every id, a fifth more when it was a call.
  @inline(__always) private func integerPart() -> (negative: Bool, value: UInt64, count: Int, end: Int)? {
    let negative = bytes[index...].first == UInt8(ascii: "-")
    let start = negative ? index + 1 : index
    guard let run = digitRun(at: start), run.count > 0, run.count == 1 || bytes[start] != UInt8(ascii: "0") else {
      return nil
    }
    return (negative, run.value, run.count, start + run.count)
  }

  /// Whether the byte at `position` (which may be the end) is `byte`.
  private func isByte(at position: Int, _ byte: Unicode.Scalar) -> Bool {
    position < bytes.endIndex && bytes[position] == UInt8(ascii: byte)
  }

  /// Whether a number's exponent (`e` or `E`) starts at `position`.
  private func isExponent(at position: Int) -> Bool { isByte(at: position, "e") || isByte(at: position, "E") }

  /// The decimal digits from `start` (none, when the byte there is not a
  /// digit), as a number; nil when they overflow 64 bits.
  private func digitRun(at start: Int) -> (value: UInt64, count: Int)? {
    var cursor = start
    var value: UInt64 = 0
    while cursor < bytes.endIndex, bytes[cursor] >= UInt8(ascii: "0"), bytes[cursor] <= UInt8(ascii: "9") {
      let (times, overflow) = value.multipliedReportingOverflow(by: 10)
      let (sum, overflow2) = times.addingReportingOverflow(UInt64(bytes[cursor] - UInt8(ascii: "0")))
      guard !overflow, !overflow2 else { return nil }
      value = sum
      cursor += 1
    }
    return (value, cursor - start)
  }

  /// `{"raw":N}`: an id, as a synthesized `Codable` struct of one `Int` is written.
  public mutating func rawID() -> Int? {
    let start = index
    guard literal(#"{"raw":"#), let value = int(), literal("}") else {
      index = start
      return nil
    }
    return value
  }

  /// A `Decimal` as the writer writes one (its `description`): an optional
  /// minus, digits, and an optional point with digits, at most 18 digits in
  /// all. Anything else (an exponent, more digits, a negative zero) is the decoder's.
  public mutating func decimal() -> Decimal? {
    guard let whole = integerPart() else { return nil }
    var cursor = whole.end
    var significand = whole.value
    var fractionDigits = 0
    if isByte(at: cursor, ".") {
      guard let fraction = digitRun(at: cursor + 1), fraction.count > 0, whole.count + fraction.count <= 18 else {
        return nil
      }
      // At most 18 digits in all, so the product cannot overflow.
      for _ in 0..<fraction.count { significand *= 10 }
      significand += fraction.value
      fractionDigits = fraction.count
      cursor += 1 + fraction.count
    }
    // A negative zero is never written (a `Decimal` zero has no sign), and a
    // minus zero significand would make a NaN: the decoder's.
    guard whole.count + fractionDigits <= 18, !(whole.negative && significand == 0),
      !isExponent(at: cursor)
    else { return nil }
    index = cursor
    return Decimal(sign: whole.negative ? .minus : .plus, exponent: -fractionDigits, significand: Decimal(significand))
  }

  /// A `Double` as the writer writes one (`JournalJSONWriter.double`): a JSON
  /// number (`-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?`), parsed
  /// correctly rounded, as `JSONDecoder` parses it.
  public mutating func double() -> Double? {
    var cursor = index
    func digits() -> Int {
      let start = cursor
      while cursor < bytes.endIndex, bytes[cursor] >= UInt8(ascii: "0"), bytes[cursor] <= UInt8(ascii: "9") {
        cursor += 1
      }
      return cursor - start
    }
    func next(_ byte: UInt8) -> Bool {
      guard cursor < bytes.endIndex, bytes[cursor] == byte else { return false }
      cursor += 1
      return true
    }
    _ = next(UInt8(ascii: "-"))
    let wholeStart = cursor
    let whole = digits()
    guard whole > 0, whole == 1 || bytes[wholeStart] != UInt8(ascii: "0") else { return nil }
    if next(UInt8(ascii: ".")) { guard digits() > 0 else { return nil } }
    if next(UInt8(ascii: "e")) || next(UInt8(ascii: "E")) {
      _ = next(UInt8(ascii: "+")) || next(UInt8(ascii: "-"))
      guard digits() > 0 else { return nil }
    }
    guard let value = Double(String(decoding: bytes[index..<cursor], as: UTF8.self)), value.isFinite else {
      return nil
    }
    index = cursor
    return value
  }

  /// A string as the encoder writes one: UTF-8, with `\"`, `\\`, `\/`, `\b`,
  /// `\f`, `\n`, `\r`, `\t` and `\u00XX` (a control character) escaped.
  public mutating func string() -> String? {
    guard index < bytes.endIndex, bytes[index] == UInt8(ascii: "\"") else { return nil }
    // Most strings have no escape: the bytes up to the closing quote are the
    // text, made a `String` in one step (ASCII needs no validation).
    var end = index + 1
    var ascii = true
    while end < bytes.endIndex, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"), bytes[end] >= 0x20 {
      ascii = ascii && bytes[end] < 0x80
      end += 1
    }
    if end < bytes.endIndex, bytes[end] == UInt8(ascii: "\"") {
      let decoded = bytes[(index + 1)..<end].withUnsafeBufferPointer { text in
        ascii ? String(decoding: text, as: UTF8.self) : String(validating: text, as: UTF8.self)
      }
      guard let decoded else { return nil }
      index = end + 1
      return decoded
    }
    var cursor = index + 1
    var text: [UInt8] = []
    while cursor < bytes.endIndex {
      let byte = bytes[cursor]
      if byte == UInt8(ascii: "\"") {
        guard let decoded = String(validating: text, as: UTF8.self) else { return nil }
        index = cursor + 1
        return decoded
      }
      guard byte >= 0x20 else { return nil }
      if byte != UInt8(ascii: "\\") {
        text.append(byte)
        cursor += 1
        continue
      }
      guard cursor + 1 < bytes.endIndex else { return nil }
      switch bytes[cursor + 1] {
      case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): text.append(bytes[cursor + 1])
      case UInt8(ascii: "b"): text.append(0x08)
      case UInt8(ascii: "f"): text.append(0x0C)
      case UInt8(ascii: "n"): text.append(0x0A)
      case UInt8(ascii: "r"): text.append(0x0D)
      case UInt8(ascii: "t"): text.append(0x09)
      case UInt8(ascii: "u"):
        // Only the encoder's `\u00XX`, for a control character.
        guard cursor + 5 < bytes.endIndex, bytes[cursor + 2] == UInt8(ascii: "0"),
          bytes[cursor + 3] == UInt8(ascii: "0"),
          let high = Self.hex(bytes[cursor + 4]), let low = Self.hex(bytes[cursor + 5]), high < 2
        else { return nil }
        text.append(high << 4 | low)
        cursor += 6
        continue
      default: return nil
      }
      cursor += 2
    }
    return nil
  }

  private static func hex(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    default: nil
    }
  }
}
