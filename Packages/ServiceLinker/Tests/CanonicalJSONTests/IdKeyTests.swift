import CanonicalJSON
import Testing

/// Keys an id may be written as, and keys that look like one and are not.
private let keys = [
  "1", "9", "10", "12", "999999999", "1000000000", "1000000001", "9999999999", "10000000000", "0", "00", "01", "-1",
  "+1", "1.0", "1e3", " 1", "1 ", "", "١٢", "１２", "1\u{301}", "12a", "0x1f",
]

@Test func anIdKeyIsAPlainNumberFromOneToABillionAsTheRegexSaysByteForByte() {
  let cursor = JSONCursor(.object([:]), path: "items")
  for key in keys {
    // The pattern the byte check replaced, as the oracle.
    let expected =
      key.wholeMatch(of: /[1-9][0-9]{0,9}/) != nil ? Int(key).flatMap { $0 <= 1_000_000_000 ? $0 : nil } : nil
    #expect((try? JSONCursor.idKey(key, at: cursor)) == expected, "'\(key)'")
  }
}
