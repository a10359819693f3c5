import CanonicalJSON
import Payment

extension JSONCursor {
  /// An idempotency key: 1 to 100 of `A-Z a-z 0-9 _ . : -`, compared byte for byte.
  public func idempotencyKey() throws(CanonicalError) -> IdempotencyKey {
    let text = try string()
    guard text.wholeMatch(of: /[A-Za-z0-9_.:\-]{1,100}/) != nil else {
      throw fail("an idempotency key is 1 to 100 of A-Z a-z 0-9 _ . : -, not \"\(text)\"")
    }
    return IdempotencyKey(text)
  }
}
