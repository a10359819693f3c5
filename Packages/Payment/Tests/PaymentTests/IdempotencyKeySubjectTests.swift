import Testing

@testable import Payment

/// A key's subject, read byte by byte for speed, says what reading it as
/// text says, for every key: the till's own, near misses and noise.
@Test func aKeysSubjectReadByteByByteIsTheSubjectReadAsText() {
  let salt = "00c0ffee12345678"
  let crafted = [
    "k_\(salt)_1_t1", "k_\(salt)_42_t7", "k_\(salt)_-0_t+3", "k_\(salt)_1_t", "k_\(salt)__t1", "k_\(salt)_1_1",
    "k_\(salt)_1_t1_", "k_\(salt)_1", "k_\(salt[...].dropLast())_1_t1", "k_\(salt)0_1_t1", "K_\(salt)_1_t1",
    "kk_\(salt)_1_t1", "_\(salt)_1_t1", "k_\(salt)_99999999999999999999_t1", "k_\(salt)_1_t99999999999999999999",
    "k_\(salt)_1_té", "k_\(salt.dropLast(2))é\r\n_1_t1", "k_\(salt.dropLast())\r\n_1_t1", "k_\(salt)_1_t1\r\n", "",
    "k", "k_", "k___", "k_1", "k_1_t1",
  ]
  for raw in crafted {
    let key = IdempotencyKey(raw)
    #expect(key.subject == key.subjectOfText, "\(raw.debugDescription)")
  }
  #expect(IdempotencyKey("k_\(salt)_42_t7").subject == "k_\(salt)_t7")

  // Every way of putting a key together from right and wrong parts.
  var agreed = 0
  for head in ["k", "K", "kk", "", "k\r\n"] {
    for saltPart in [
      salt, String(salt.dropLast()), salt + "0", String(salt.dropLast()) + "é", "\r\n" + salt.dropFirst(),
    ] {
      for sequence in [
        "1", "42", "-0", "+3", "", "x", "99999999999999999999", "-9223372036854775808", "-9223372036854775809",
      ] {
        for tab in [
          "t1", "t", "1", "t+2", "té", "t1_", "t-9223372036854775808", "t9223372036854775807", "t9223372036854775808",
          "t-9223372036854775809",
        ] {
          for separator in ["_", "__"] {
            let key = IdempotencyKey([head, saltPart, sequence, tab].joined(separator: separator))
            #expect(key.subject == key.subjectOfText, "\(key.raw.debugDescription)")
            if key.subject != nil { agreed += 1 }
          }
        }
      }
    }
  }
  // Head `k`, one `_`, five sequences and four tabs (an `Int` each, its
  // least and greatest included), with three salts of 16 characters: the salt
  // itself, and two that end in `é` or begin with `\r\n`.
  #expect(agreed == 60)

  var random = SystemRandomNumberGenerator()
  let pieces = ["k", "_", "t", "0", "1", "9", "a", "f", "-", "+", "\r\n", "\r", "é", " ", "k_\(salt)_", "_t"]
  for _ in 0..<20_000 {
    let raw = (0..<Int.random(in: 0...12, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
    let key = IdempotencyKey(raw)
    #expect(key.subject == key.subjectOfText, "\(raw.debugDescription)")
  }
}
