import Foundation
import Journal
import Testing

/// An id as a synthesized `Codable` struct of one `Int` is written: `{"raw":N}`.
private struct RawID: Codable, Equatable {
  var raw: Int
}

/// Integers at every edge of the digit loops (one digit, each power of ten,
/// both ends of `Int`), and random ones.
private func integerSamples() -> [Int] {
  var values = [0, 1, -1, 9, -9, Int.max, Int.min, Int.max - 1, Int.min + 1]
  var power = 1
  for _ in 0..<18 {
    power *= 10
    values += [power, power - 1, -power, -(power - 1)]
  }
  var random = SystemRandomNumberGenerator()
  values += (0..<2_000).map { _ in Int.random(in: Int.min...Int.max, using: &random) }
  values += (0..<2_000).map { _ in Int.random(in: -100_000...100_000, using: &random) }
  return values
}

@Test func theWriterWritesIdsAndIntegersAsTheEncoderDoesAtEveryDigitCount() throws {
  let encoder = JournalJSONWriter.makeEncoder()
  for value in integerSamples() {
    var writer = JournalJSONWriter()
    writer.beginArray()
    writer.rawID(value)
    writer.int(value)
    writer.endArray()
    let expected = "[\(String(decoding: try encoder.encode(RawID(raw: value)), as: UTF8.self)),\(value)]"
    #expect(String(decoding: writer.bytes, as: UTF8.self) == expected)
  }
}

@Test func theReaderReadsEveryIntegerTheDecoderReads() throws {
  for value in integerSamples() {
    let bytes = Array("{\"raw\":\(value)}".utf8)
    var reader = JournalJSONReader(bytes[...])
    let read = reader.rawID()
    #expect(read == value)
    #expect(reader.isAtEnd)
    #expect(try JSONDecoder().decode(RawID.self, from: Data(bytes)).raw == value)
  }
}

@Test func theReaderLeavesIntegersOutsideTheWritersFormToTheDecoder() {
  // A leading zero, a lone sign, no digits, one past each end of `Int`, 64
  // bits overflowed, a fraction or an exponent after the digits.
  let texts = [
    "01", "-01", "-", "", "x", "9223372036854775808", "-9223372036854775809", "18446744073709551616", "12e3", "7E2",
    "1.5",
  ]
  for text in texts {
    let bytes = Array(text.utf8)
    var reader = JournalJSONReader(bytes[...])
    let read = reader.int()
    #expect(read == nil, "\(text)")
    #expect(reader.index == 0, "a refused read moves nothing: \(text)")
  }
}

@Test func theReaderReadsTheWritersDecimalsAsTheDecoderDoes() throws {
  var random = SystemRandomNumberGenerator()
  var texts = ["0", "1", "0.5", "-0.05", "123456789012345678", "12345678.9012345678", "0.00000000000000001"]
  for _ in 0..<3_000 {
    let cents = Int.random(in: -1_000_000_000...1_000_000_000, using: &random)
    let scale = Int.random(in: 0...6, using: &random)
    var writer = JournalJSONWriter()
    writer.decimal(Decimal(sign: cents < 0 ? .minus : .plus, exponent: -scale, significand: Decimal(cents.magnitude)))
    texts.append(String(decoding: writer.bytes, as: UTF8.self))
  }
  for text in texts {
    let bytes = Array(text.utf8)
    var reader = JournalJSONReader(bytes[...])
    let value = reader.decimal()
    let read = try #require(value, "\(text)")
    #expect(reader.isAtEnd, "\(text)")
    let decoded = try JSONDecoder().decode([Decimal].self, from: Data("[\(text)]".utf8))[0]
    #expect(read == decoded, "\(text): \(read) against the decoder's \(decoded)")
    #expect(read.description == decoded.description, "\(text)")
  }
}

@Test func theReaderLeavesDecimalsOutsideTheWritersFormToTheDecoder() {
  // An exponent, a point with no digit on either side, a leading zero, 19
  // digits, 64 bits overflowed, a negative zero (which the writer never writes).
  let texts = [
    "-0", "-0.00",
    "1e5", "1.5E2", "1.", ".5", "-.5", "01", "00.5", "-", "", "1234567890123456789", "123456789.0123456789",
    "99999999999999999999",
  ]
  for text in texts {
    let bytes = Array(text.utf8)
    var reader = JournalJSONReader(bytes[...])
    let read = reader.decimal()
    #expect(read == nil, "\(text)")
    #expect(reader.index == 0, "a refused read moves nothing: \(text)")
  }
}
