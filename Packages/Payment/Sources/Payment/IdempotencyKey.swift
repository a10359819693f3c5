/// Names one attempt to move money. The processor moves money at most once per
/// key, and answers `status(of:)` by it. The kiosk derives keys from its
/// journal (salt and the intent record's sequence number), so a key is never
/// reused by another attempt and can be recomputed after a crash.
public struct IdempotencyKey: Hashable, Codable, Sendable, CustomStringConvertible {
  /// The key's text, e.g. `k_00c0ffee00c0ffee_7`.
  public var raw: String

  /// Wraps a key's text.
  public init(_ raw: String) { self.raw = raw }

  /// The key of the record `sequence` in the journal whose header has `salt`
  /// (the form of journals before keys named their tab).
  public init(journalSalt salt: UInt64, sequence: UInt64) {
    raw = "\(Self.saltPart(salt))_\(sequence)"
  }

  /// The key of the intent record `sequence`, for tab `tab`, in the journal
  /// whose header has `salt`: `k_<salt>_<sequence>_t<tab>`. Naming the tab
  /// lets the till ask the processor what it already charged for the tab,
  /// whatever the sequence (`subject`).
  public init(journalSalt salt: UInt64, sequence: UInt64, tab: Int) {
    raw = "\(Self.saltPart(salt))_\(sequence)_t\(tab)"
  }

  /// What a key of the till moves money for, whatever its sequence: the
  /// journal's salt and the tab, `k_<salt>_t<tab>`. Nil for a key of any other form.
  public var subject: String? {
    // A ledger holds one key per movement, and every writer reads it whole:
    // a key of ASCII (as the till makes them) is taken apart byte by byte, in
    // one pass. Any other is taken apart as text, where a part's length is
    // in characters (`\r\n` is one).
    switch raw.utf8.withContiguousStorageIfAvailable(Self.subjectOfBytes) {
    case .subject(let bytes)?: String(decoding: bytes, as: UTF8.self)
    case .noSubject?: nil
    case .notASCII?, nil: subjectOfText
    }
  }

  /// What a key's bytes say of its subject.
  private enum SubjectOfBytes {
    /// The subject's bytes, `k_<salt>_t<tab>`.
    case subject([UInt8])
    /// A key of ASCII with no subject.
    case noSubject
    /// A byte outside ASCII, or a carriage return: the text decides.
    case notASCII
  }

  /// `subject` for a key of ASCII: `k`, `_`, 16 bytes, `_`, an `Int`, `_t`
  /// and an `Int`, with no other `_`.
  private static func subjectOfBytes(_ bytes: UnsafeBufferPointer<UInt8>) -> SubjectOfBytes {
    let underscore = UInt8(ascii: "_")
    var underscores: (Int, Int, Int) = (-1, -1, -1)
    var count = 0
    for (offset, byte) in bytes.enumerated() {
      guard byte < 0x80, byte != UInt8(ascii: "\r") else { return .notASCII }
      guard byte == underscore else { continue }
      switch count {
      case 0: underscores.0 = offset
      case 1: underscores.1 = offset
      case 2: underscores.2 = offset
      default: break
      }
      count += 1
    }
    let (first, second, third) = underscores
    guard count == 3, first == 1, bytes[0] == UInt8(ascii: "k"), second == 18, third + 1 < bytes.count,
      bytes[third + 1] == UInt8(ascii: "t"), isInt(bytes[(second + 1)..<third]), isInt(bytes[(third + 2)...])
    else { return .noSubject }
    return .subject(Array(bytes[..<second]) + [underscore] + Array(bytes[(third + 1)...]))
  }

  /// Whether `Int(text)` reads `bytes`: a sign or none, then digits, within `Int`'s range.
  private static func isInt(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
    var digits = bytes
    let negative = digits.first == UInt8(ascii: "-")
    if negative || digits.first == UInt8(ascii: "+") { digits = digits.dropFirst() }
    guard !digits.isEmpty else { return false }
    var value = 0
    for byte in digits {
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return false }
      let digit = Int(byte - UInt8(ascii: "0"))
      let (shifted, overflowed) = value.multipliedReportingOverflow(by: 10)
      let (next, overflowedAgain) =
        negative ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
      guard !overflowed, !overflowedAgain else { return false }
      value = next
    }
    return true
  }

  /// `subject`, with the key taken apart as text.
  var subjectOfText: String? {
    let parts = raw.split(separator: "_", omittingEmptySubsequences: false)
    guard parts.count == 4, parts[0] == "k", parts[1].count == 16, parts[3].hasPrefix("t"),
      Int(parts[2]) != nil, Int(parts[3].dropFirst()) != nil
    else { return nil }
    return "k_\(parts[1])_\(parts[3])"
  }

  /// The salt of the journal whose key this is (`k_<salt>_…`), nil for a key of any other form.
  public var journalSalt: UInt64? {
    let parts = raw.split(separator: "_", omittingEmptySubsequences: false)
    guard parts.count >= 3, parts[0] == "k", parts[1].count == 16 else { return nil }
    return UInt64(parts[1], radix: 16)
  }

  /// The subject of the keys of tab `tab` in the journal whose header has `salt`.
  public static func subject(journalSalt salt: UInt64, tab: Int) -> String { "\(saltPart(salt))_t\(tab)" }

  /// How every key of the journal whose header has `salt` begins: `k_<salt>_`.
  public static func prefix(journalSalt salt: UInt64) -> String { saltPart(salt) + "_" }

  private static func saltPart(_ salt: UInt64) -> String {
    let hex = String(salt, radix: 16)
    return "k_\(String(repeating: "0", count: max(0, 16 - hex.count)))\(hex)"
  }

  public var description: String { raw }

  public init(from decoder: any Decoder) throws { raw = try decoder.singleValueContainer().decode(String.self) }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(raw)
  }
}
