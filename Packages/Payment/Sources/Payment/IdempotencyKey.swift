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
    let bytes = raw.utf8
    // A ledger holds one key per movement, and every writer reads it whole:
    // a key of ASCII (as the till makes them) is taken apart byte by byte.
    // Any other is taken apart as text, where a part's length is in
    // characters (`\r\n` is one).
    guard bytes.allSatisfy({ $0 < 0x80 && $0 != UInt8(ascii: "\r") }) else { return subjectOfText }
    let underscore = UInt8(ascii: "_")
    guard let first = bytes.firstIndex(of: underscore), bytes.first == UInt8(ascii: "k"),
      bytes.distance(from: bytes.startIndex, to: first) == 1,
      let second = bytes[bytes.index(after: first)...].firstIndex(of: underscore),
      bytes.distance(from: first, to: second) == 17,
      let third = bytes[bytes.index(after: second)...].firstIndex(of: underscore),
      !bytes[bytes.index(after: third)...].contains(underscore)
    else { return nil }
    let tab = raw[raw.index(after: third)...]
    guard Int(raw[raw.index(after: second)..<third]) != nil, tab.utf8.first == UInt8(ascii: "t"),
      Int(tab.dropFirst()) != nil
    else { return nil }
    return String(raw[..<second]) + "_" + String(tab)
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
