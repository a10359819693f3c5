/// Names one attempt to move money. The processor moves money at most once per
/// key, and answers `status(of:)` by it. The kiosk derives keys from its
/// journal (salt and the intent record's sequence number), so a key is never
/// reused by another attempt and can be recomputed after a crash.
public struct IdempotencyKey: Hashable, Codable, Sendable, CustomStringConvertible {
  /// The key's text, e.g. `k_00c0ffee00c0ffee_7`.
  public var raw: String

  /// Wraps a key's text.
  public init(_ raw: String) { self.raw = raw }

  /// The key of the record `sequence` in the journal whose header has `salt`.
  public init(journalSalt salt: UInt64, sequence: UInt64) {
    let hex = String(salt, radix: 16)
    raw = "k_\(String(repeating: "0", count: max(0, 16 - hex.count)))\(hex)_\(sequence)"
  }

  public var description: String { raw }

  public init(from decoder: any Decoder) throws { raw = try decoder.singleValueContainer().decode(String.self) }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(raw)
  }
}
