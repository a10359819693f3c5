import Foundation
import Journal
import Testing

/// A value of each kind the writer writes, in a struct whose synthesized
/// `Codable` the journal's `JSONEncoder` writes: the writer must give the same bytes.
private struct Sample: Encodable {
  var amount: Decimal
  var count: Int
  var text: String
  var time: Double?

  /// The writer's bytes, or nil when it leaves the time to the encoder.
  func written() -> [UInt8]? {
    var writer = JournalJSONWriter()
    writer.beginObject()
    writer.key("amount")
    writer.decimal(amount)
    writer.key("count")
    writer.int(count)
    writer.key("text")
    writer.string(text)
    if let time {
      writer.key("time")
      guard writer.double(time) else { return nil }
    }
    writer.endObject()
    return writer.bytes
  }
}

@Test func theWriterGivesTheEncodersBytesForStringsNumbersAndTimes() throws {
  // The journal's own encoder: the writer must give its bytes.
  let encoder = JournalJSONWriter.makeEncoder()
  // Fresh values each run, as the journal's other random tests; a failure prints the value.
  var random = SystemRandomNumberGenerator()
  // Every control character, the escaped ones, and text beyond ASCII.
  let alphabet: [Unicode.Scalar] =
    (0..<0x20).map { Unicode.Scalar(UInt8($0)) } + [
      "\"", "\\", "/", "a", "Z", " ", "~", "\u{7F}", "é", "€", "😀", "\u{2028}",
    ]
  var written = 0
  var writable = 0
  for round in 0..<3_000 {
    var text = String.UnicodeScalarView()
    for _ in 0..<Int.random(in: 0...12, using: &random) { text.append(alphabet.randomElement(using: &random)!) }
    let cents = Int.random(in: -1_000_000...100_000_000, using: &random)
    let scale = Int16.random(in: 0...4, using: &random)
    let amount = Decimal(sign: cents < 0 ? .minus : .plus, exponent: -Int(scale), significand: Decimal(cents.magnitude))
    let time: Double? =
      switch round % 5 {
      case 0: nil
      case 1: Double.random(in: 6e8...9e8, using: &random)  // a clock's time since 2001
      case 2: Double(Int.random(in: 0...900_000_000, using: &random))
      case 3: Double.random(in: -1e6...1e6, using: &random)
      default: Double(sign: .plus, exponent: Int.random(in: -30...60, using: &random), significand: 1.5)
      }
    let sample = Sample(
      amount: amount, count: Int.random(in: Int.min...Int.max, using: &random), text: String(text), time: time)
    // Finite times from 1e-4 to 1e15 in magnitude (and zero) are the writer's; the rest the encoder's.
    if let time, !(time == 0 || (time.magnitude >= 1e-4 && time.magnitude < 1e15)) {
      #expect(sample.written() == nil, "\(time)")
      continue
    }
    writable += 1
    guard let bytes = sample.written() else { continue }
    written += 1
    let expected = Array(try encoder.encode(sample))
    #expect(
      bytes == expected,
      "\(String(decoding: bytes, as: UTF8.self)) against the encoder's \(String(decoding: expected, as: UTF8.self))")
  }
  // The writer takes every sample but those whose time is far from 1 (a random
  // share of the rounds), which it leaves to the encoder.
  #expect(written == writable && written > 2_000)
}
