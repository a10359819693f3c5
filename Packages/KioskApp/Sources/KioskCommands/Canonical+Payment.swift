import CanonicalJSON
import Payment

extension JSONCursor {
  /// An idempotency key: 1 to 100 of `A-Z a-z 0-9 _ . : -`, compared byte for byte.
  public func idempotencyKey() throws(CanonicalError) -> IdempotencyKey {
    let text = try string()
    // Byte by byte, not a regex literal, which is compiled on every call (every payment record replayed).
    guard (1...100).contains(text.utf8.count), text.utf8.allSatisfy(Self.isIdempotencyKeyByte) else {
      throw fail("an idempotency key is 1 to 100 of A-Z a-z 0-9 _ . : -, not \"\(text)\"")
    }
    return IdempotencyKey(text)
  }

  /// `A-Z a-z 0-9 _ . : -`.
  private static func isIdempotencyKeyByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"),
      UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: ":"), UInt8(ascii: "-"):
      true
    default: false
    }
  }
}
