#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Writes JSON bytes exactly as the journal's `JSONEncoder` (sorted keys) writes
/// the same values, without going through `Encodable`: a hand-written
/// `JournalEncodable` entry uses it to skip the encoder's cost (most of a
/// command's), and the journal's bytes do not change. The caller writes each
/// object's keys in sorted order and omits a key whose optional value is nil,
/// as synthesized `Codable` does; tests compare its bytes with the encoder's
/// over random entries.
public struct JournalJSONWriter: Sendable {
  /// The bytes written so far.
  public var bytes: [UInt8] = []
  /// Whether the next key or value in the current container follows another.
  @usableFromInline var needsComma = false
  /// Whether `/` is written `\/`, as the journal's encoder writes it; false
  /// for the canonical form (`JSONEncoder`'s `.withoutEscapingSlashes`).
  public var escapesSlashes = true
  /// Whether the entry is to be written in its canonical form: the journal
  /// it goes into is of `JournalFormat.canonicalVersion` or later. The
  /// journal sets it, and `escapesSlashes` with it; the entry reads it.
  public var canonical = false

  /// An empty writer.
  @inlinable public init() { bytes.reserveCapacity(160) }

  /// An empty writer for a journal of format `version`.
  public init(version: UInt16) {
    self.init()
    canonical = version >= JournalFormat.canonicalVersion
    escapesSlashes = !canonical
  }

  /// A writer for a journal of format `version` whose bytes start empty,
  /// with no storage reserved: one that writes into a caller's buffer.
  init(unreserved version: UInt16) {
    canonical = version >= JournalFormat.canonicalVersion
    escapesSlashes = !canonical
  }

  /// Appends `entry`'s bytes, as a journal of `version` holds them, to `out`
  /// after the bytes already there: its own writer's when it has one (in
  /// place, no copy), else `JSONEncoder`'s, the encoder made only then.
  public static func append(_ entry: some JournalEncodable, version: UInt16, to out: inout [UInt8])
    throws(JournalError)
  {
    var writer = JournalJSONWriter(unreserved: version)
    swap(&writer.bytes, &out)
    let start = writer.bytes.count
    let written = entry.writeJournal(to: &writer)
    swap(&writer.bytes, &out)
    if written { return }
    // An entry that wrote part of itself before leaving itself to the encoder leaves no trace.
    out.removeSubrange(start...)
    do { out.append(contentsOf: try makeEncoder().encode(entry)) } catch { throw .codec(String(describing: error)) }
  }

  /// A writer whose bytes start with a record's frame, left as zeros for the
  /// journal to fill in once the payload is written (`WriteAheadLog.append`).
  static func reservingFrame(version: UInt16) -> JournalJSONWriter {
    var writer = JournalJSONWriter(version: version)
    writer.bytes.append(contentsOf: repeatElement(0, count: JournalFormat.frameSize))
    return writer
  }

  /// The encoder whose bytes the writer reproduces, and which the journal uses
  /// for whatever does not write itself: sorted keys, the default strategies.
  public static func makeEncoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return encoder
  }

  /// Whether `double` writes `value` (or leaves it to the encoder).
  @inlinable public static func writes(_ value: Double) -> Bool {
    value.isFinite && (value == 0 || (value.magnitude >= 1e-4 && value.magnitude < 1e15))
  }

  /// Opens an object: `{`.
  @inlinable public mutating func beginObject() {
    separate()
    bytes.append(UInt8(ascii: "{"))
    needsComma = false
  }

  /// Closes the object: `}`.
  @inlinable public mutating func endObject() {
    bytes.append(UInt8(ascii: "}"))
    needsComma = true
  }

  /// Writes `"name":`; the value follows. Keys are plain ASCII names, written as given.
  @inlinable public mutating func key(_ name: StaticString) {
    // `,"name":` put together on the stack, then one append: a checkpoint
    // writes three keys per tab, and each append checks the buffer anew.
    let comma = needsComma
    name.withUTF8Buffer { name in
      withUnsafeTemporaryAllocation(of: UInt8.self, capacity: name.count + 4) { key in
        var at = 0
        if comma {
          key[0] = UInt8(ascii: ",")
          at = 1
        }
        key[at] = UInt8(ascii: "\"")
        at = UnsafeMutableBufferPointer(rebasing: key[(at + 1)...]).initialize(fromContentsOf: name) + at + 1
        key[at] = UInt8(ascii: "\"")
        key[at + 1] = UInt8(ascii: ":")
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: key[...(at + 1)]))
      }
    }
    needsComma = false
  }

  /// Writes `"name":` and an object of the one key `raw`: how a synthesized
  /// `Codable` struct of one `Int` (an id) is written.
  @inlinable public mutating func rawID(_ name: StaticString, _ value: Int) {
    key(name)
    rawID(value)
  }

  /// `{"raw":N}`: an id, as a synthesized `Codable` struct of one `Int` is written.
  @inlinable public mutating func rawID(_ value: Int) {
    // `,{"raw":N}` put together on the stack, then one append: a checkpoint
    // writes one per tab and one per line on it.
    let comma = needsComma
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { buffer in
      var at = 0
      if comma {
        buffer[0] = UInt8(ascii: ",")
        at = 1
      }
      let open: StaticString = #"{"raw":"#
      open.withUTF8Buffer { open in
        for byte in open {
          buffer[at] = byte
          at += 1
        }
      }
      at = Self.writeDigits(of: value, into: UnsafeMutableBufferPointer(rebasing: buffer[at...])) + at
      buffer[at] = UInt8(ascii: "}")
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[...at]))
    }
    needsComma = true
  }

  /// Writes `value`'s decimal digits (and its minus sign) at the start of
  /// `buffer`, which has room for 20 (19 digits and a sign); returns how many bytes it wrote.
  @inlinable static func writeDigits(of value: Int, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
    // Counted by comparison (an `Int`'s magnitude has at most 19 digits, and
    // 10^19 fits a `UInt`), then written from the last digit back: one
    // division per digit.
    var magnitude = value.magnitude
    var count = 1
    var bound: UInt = 10
    while count < 19, magnitude >= bound {
      count += 1
      bound &*= 10
    }
    let sign = value < 0 ? 1 : 0
    if sign == 1 { buffer[0] = UInt8(ascii: "-") }
    var at = sign + count
    repeat {
      at -= 1
      buffer[at] = UInt8(ascii: "0") + UInt8(magnitude % 10)
      magnitude /= 10
    } while magnitude > 0
    return sign + count
  }

  /// A string, escaped as `JSONEncoder` escapes it: `"`, `\` and `/` (unless
  /// `escapesSlashes` is false) behind a backslash, the common control characters by name, the others as
  /// `\u00XX`; everything else as its UTF-8.
  @inlinable public mutating func string(_ text: String) {
    separate()
    bytes.append(UInt8(ascii: "\""))
    var text = text
    text.withUTF8 { utf8 in
      var start = 0
      for index in utf8.indices {
        let byte = utf8[index]
        guard
          byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
            || (byte == UInt8(ascii: "/") && escapesSlashes)
        else { continue }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
        start = index + 1
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): bytes.append(byte)
        case 0x08: bytes.append(UInt8(ascii: "b"))
        case 0x0C: bytes.append(UInt8(ascii: "f"))
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        default:
          let hex = Array("0123456789abcdef".utf8)
          bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)]])
          bytes.append(hex[Int(byte & 0x0F)])
        }
      }
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
    }
    bytes.append(UInt8(ascii: "\""))
    needsComma = true
  }

  /// `"<digits>":`: an integer as an object's key (the canonical form keys
  /// dictionaries by ids that way); the value follows.
  @inlinable public mutating func key(digitsOf value: Int) {
    separate()
    bytes.append(UInt8(ascii: "\""))
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
      let count = Self.writeDigits(of: value, into: digits)
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[..<count]))
    }
    bytes.append(UInt8(ascii: "\""))
    bytes.append(UInt8(ascii: ":"))
    needsComma = false
  }

  /// `null`.
  @inlinable public mutating func null() {
    separate()
    let text: StaticString = "null"
    text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    needsComma = true
  }

  /// `true` or `false`.
  @inlinable public mutating func bool(_ value: Bool) {
    separate()
    let text: StaticString = value ? "true" : "false"
    text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    needsComma = true
  }

  /// A value already written as JSON (by this writer or by `JSONEncoder`), as it is.
  @inlinable public mutating func raw(_ json: some Collection<UInt8>) {
    separate()
    bytes.append(contentsOf: json)
    needsComma = true
  }

  /// Opens an array: `[`.
  @inlinable public mutating func beginArray() {
    separate()
    bytes.append(UInt8(ascii: "["))
    needsComma = false
  }

  /// Closes the array: `]`.
  @inlinable public mutating func endArray() {
    bytes.append(UInt8(ascii: "]"))
    needsComma = true
  }

  /// An integer, in decimal digits.
  @inlinable public mutating func int(_ value: Int) {
    separate()
    // Into a buffer on the stack, then one append.
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
      let count = Self.writeDigits(of: value, into: digits)
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: digits[..<count]))
    }
    needsComma = true
  }

  /// A `Decimal`, as `JSONEncoder` writes one: its `description`.
  @inlinable public mutating func decimal(_ value: Decimal) {
    separate()
    bytes.append(contentsOf: value.description.utf8)
    needsComma = true
  }

  /// A finite `Double`, as `JSONEncoder` writes one: its shortest round-trip
  /// digits, without a `.0` for a whole number. False, writing nothing, when
  /// the encoder's form is not known to be that (not finite, or far from 1).
  @inlinable public mutating func double(_ value: Double) -> Bool {
    guard Self.writes(value) else { return false }
    separate()
    var text = value.description
    if text.hasSuffix(".0") { text.removeLast(2) }
    bytes.append(contentsOf: text.utf8)
    needsComma = true
    return true
  }

  @inlinable mutating func separate() {
    if needsComma { bytes.append(UInt8(ascii: ",")) }
  }
}

extension JournalJSONWriter {
  /// The bytes a journal of format `version` holds for `entry`: its own, or
  /// `encoder`'s (the journal's, `makeEncoder()`) when it leaves this one to the encoder.
  public static func bytes(
    of entry: some JournalEncodable, version: UInt16 = JournalFormat.encoderVersion,
    encoder: JSONEncoder = makeEncoder()
  ) throws(JournalError) -> [UInt8] {
    var writer = JournalJSONWriter(version: version)
    if entry.writeJournal(to: &writer) { return writer.bytes }
    do { return Array(try encoder.encode(entry)) } catch { throw .codec(String(describing: error)) }
  }
}

/// An entry that writes its own journal bytes (`JournalJSONWriter`): in a
/// journal of version 2, the same bytes `JSONEncoder` would write, so
/// appending it costs a fraction of the encoder; in version 3, its canonical
/// form when it has one (`writer.canonical`).
public protocol JournalEncodable: Encodable {
  /// Writes the entry; false, having written nothing, when this entry is one
  /// it leaves to `JSONEncoder` (the journal then encodes it that way).
  func writeJournal(to writer: inout JournalJSONWriter) -> Bool
}

/// An entry that can read its own journal bytes, those `JournalEncodable`
/// writes, faster than `JSONDecoder`; it answers nil for anything it does not
/// read exactly, and the journal then decodes those bytes with `JSONDecoder`.
public protocol JournalDecodable: Decodable {
  /// The entry in `bytes`, or nil to leave them to `JSONDecoder`.
  static func readJournal(_ bytes: ArraySlice<UInt8>) -> Self?

  /// The entry in `bytes`, the payload of a record in a journal of format
  /// `version`. The default reads every version as `decoded(from:decoder:)`
  /// does; an entry that writes a canonical form in version 3 reads it here.
  static func decoded(from bytes: ArraySlice<UInt8>, version: UInt16, decoder: JSONDecoder) throws -> Self
}

extension JournalDecodable {
  /// The entry in `bytes`: read by hand when they are in the writer's form
  /// (`readJournal`), decoded by `decoder` when they are not. The one place
  /// that chooses between the two.
  @inlinable public static func decoded(from bytes: ArraySlice<UInt8>, decoder: JSONDecoder = JSONDecoder()) throws
    -> Self
  {
    if let entry = readJournal(bytes) { return entry }
    return try decoder.decode(Self.self, from: Data(bytes))
  }

  /// Every version as `decoded(from:decoder:)`.
  @inlinable public static func decoded(from bytes: ArraySlice<UInt8>, version: UInt16, decoder: JSONDecoder) throws
    -> Self
  {
    try decoded(from: bytes, decoder: decoder)
  }
}
