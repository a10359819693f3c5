import CanonicalJSON
import Foundation
import Journal
import KioskCommands
import Menu
import Payment
import Stock
import Tabs
import Testing
import _ServiceLinkerTestSupport

/// A random record of every kind, with values the canonical form holds (whole
/// cents, whole seconds, counts `restock` accepts).
private func randomCanonicalRecord(_ random: inout SeededGenerator) -> KioskRecord {
  randomKioskRecord(
    &random,
    RandomRecordValues(
      tabs: 1...1_000_000_000,
      money: { random in
        // Whole cents, written with two, one or no decimals, as sums and prices are.
        let cents = Int.random(in: 0...9_999_999, using: &random)
        let exponent = Int.random(in: 0...2, using: &random)
        guard exponent < 2, cents % (exponent == 0 ? 100 : 10) == 0 else {
          return CanonicalMoney.amount(minorUnits: cents)
        }
        return Decimal(sign: .plus, exponent: -exponent, significand: Decimal(cents / (exponent == 0 ? 100 : 10)))
      },
      chargedAt: { random in Date(timeIntervalSince1970: Double(Int.random(in: 0...4_000_000_000, using: &random))) },
      restockCounts: 1...StockState.maxUnits, includesDayRecords: true))
}

/// The bytes a journal of format 3 holds for `record`.
private func format3Bytes(_ record: KioskRecord) throws -> [UInt8] {
  try JournalJSONWriter.bytes(of: record, version: JournalFormat.canonicalVersion)
}

@Test func everyRecordInAFormat3JournalIsItsCanonicalText() throws {
  var random = SeededGenerator(seed: 3)
  for _ in 0..<5_000 {
    let record = randomCanonicalRecord(&random)
    let bytes = try format3Bytes(record)
    #expect(String(decoding: bytes, as: UTF8.self) == record.canonical.compactText)
  }
}

@Test func aFormat3RecordReadsBackAsTheRecordWritten() throws {
  var random = SeededGenerator(seed: 33)
  for _ in 0..<5_000 {
    let record = randomCanonicalRecord(&random)
    let bytes = try format3Bytes(record)[...]
    #expect(try KioskRecord.decoded(from: bytes, version: 3, decoder: JSONDecoder()) == record)
    // The hand reader takes every record the writer writes, the first of a day too.
    if case .dayClosed = record { continue }
    if case .tillNamed = record { continue }
    var reader = JournalJSONReader(bytes)
    #expect(reader.canonicalRecord() == record && reader.isAtEnd, "\(String(decoding: bytes, as: UTF8.self))")
  }
}

/// Damaged bytes: whatever the hand reader takes, the strict parser takes too,
/// as the same record, so the fast path never reads what the form refuses.
@Test func theHandReaderTakesNothingTheParserRefuses() throws {
  var random = SeededGenerator(seed: 333)
  let replacements = Array("0-19\"\\/,:{}[]n ".utf8) + [0x01, 0xC3, 0xFF]
  var taken = 0
  for _ in 0..<20_000 {
    var bytes = try format3Bytes(randomCanonicalRecord(&random))
    for _ in 0..<Int.random(in: 1...2, using: &random) {
      let at = Int.random(in: 0..<bytes.count, using: &random)
      switch Int.random(in: 0..<3, using: &random) {
      case 0: bytes[at] = replacements.randomElement(using: &random)!
      case 1: bytes.insert(replacements.randomElement(using: &random)!, at: at)
      default: bytes.remove(at: at)
      }
    }
    var reader = JournalJSONReader(bytes[...])
    guard let fast = reader.canonicalRecord(), reader.isAtEnd else { continue }
    taken += 1
    let parsed = try? KioskRecord(canonical: JSONCursor(JSONValue.parse(bytes)))
    #expect(parsed == fast, "\(String(decoding: bytes, as: UTF8.self))")
  }
  #expect(taken > 100)
}

/// `-0` is no count the canonical form writes, and the parser refuses it
/// ("zero is written 0, not -0"): the hand reader, whose `int()` reads it as
/// 0, leaves it to the parser, in a first record's menu and stock and in an
/// undo history's inverses alike. The same bytes with `0` are read by hand.
@Test func aCountWrittenMinusZeroIsLeftToTheParserWhichRefusesIt() throws {
  let records = [
    #"{"initialized":{"menu":{},"stock":{"beans":-0}}}"#,
    #"{"initialized":{"menu":{"1":{"name":"Latte","price":450,"recipe":{"milk":-0}}},"stock":{}}}"#,
  ]
  for text in records {
    var reader = JournalJSONReader(Array(text.utf8)[...])
    #expect(reader.canonicalRecord() == nil, "\(text)")
    #expect(throws: CanonicalError.self) { _ = try KioskRecord.readCanonical(Array(text.utf8)[...]) }
    var unsigned = JournalJSONReader(Array(text.replacingOccurrences(of: "-0", with: "0").utf8)[...])
    #expect(unsigned.canonicalRecord() != nil && unsigned.isAtEnd, "\(text) with 0")
  }
  let histories = [
    #"[{"record":{"removed":{"item":1,"tab":1}},"step":{"insertLine":{"at":-0,"item":1,"tab":1}}}]"#,
    #"[{"record":{"settled":{"chargedAt":"2025-12-25T15:16:41Z","key":null,"reference":"ch_1","tab":1,"total":450}},"step":{"reopen":{"contents":{"customer":"Ada","lines":[1]},"needs":{"milk":-0},"tab":1,"total":450}}}]"#,
  ]
  for text in histories {
    var reader = JournalJSONReader(Array(text.utf8)[...])
    #expect(reader.canonicalUndoEntries() == nil, "\(text)")
    var unsigned = JournalJSONReader(Array(text.replacingOccurrences(of: "-0", with: "0").utf8)[...])
    #expect(unsigned.canonicalUndoEntries() != nil && unsigned.isAtEnd, "\(text) with 0")
  }
}

@Test func aDamagedFormat3RecordFailsWithTheParsersReason() throws {
  let bytes = Array(#"{"restocked":{"count":0,"ingredient":"milk"}}"#.utf8)[...]
  #expect(throws: CanonicalError.self) { _ = try KioskRecord.decoded(from: bytes, version: 3, decoder: JSONDecoder()) }
  do {
    _ = try KioskRecord.readCanonical(bytes)
  } catch {
    #expect(error.description.contains("restocked.count"), "\(error)")
  }
  // The same bytes in a journal of format 2 are the encoder's, read as they always were.
  #expect(
    try KioskRecord.decoded(from: bytes, version: 2, decoder: JSONDecoder()) == .restocked(ingredient: .milk, count: 0))
}

@Test func aRecordTheCanonicalFormCannotHoldIsRefusedAndNothingIsWritten() throws {
  let folder = try TemporaryJournal()
  var journal = try DurableJournal(path: folder.path)
  #expect(journal.version == JournalFormat.canonicalVersion)
  let key = IdempotencyKey(journalSalt: journal.salt, sequence: 1, tab: 1)
  let intent = PaymentIntent(kind: .charge, key: key, tab: Tab.ID(raw: 1), amount: Decimal(string: "4.505")!)
  let size = journal.size
  #expect(throws: JournalError.self) { try journal.append(KioskRecord.paymentIntent(intent)) }
  #expect(journal.size == size)
  #expect(journal.lastSequence == 0)
  #expect(try journal.append(KioskRecord.opened(tab: Tab.ID(raw: 1), customer: "Ada")) == 1)
}

@Test func aFormat2JournalKeepsTheEncodersBytes() throws {
  let record = KioskRecord.settled(
    Receipt(
      tab: Tab.ID(raw: 2), total: 4.5, chargedAt: Date(timeIntervalSince1970: 1_750_000_000), reference: "ch_1"))
  let old = try JournalJSONWriter.bytes(of: record, version: JournalFormat.encoderVersion)
  #expect(old == Array(try JournalJSONWriter.makeEncoder().encode(record)))
  let new = try format3Bytes(record)
  #expect(
    String(decoding: new, as: UTF8.self)
      == #"{"settled":{"chargedAt":"2025-06-15T15:06:40Z","key":null,"reference":"ch_1","tab":2,"total":450}}"#)
}

@Test func aReceiptRecordsTheSecondItWasChargedIn() {
  let now = Date(timeIntervalSince1970: 1_750_000_000.75)
  #expect(Receipt.time(now) == Date(timeIntervalSince1970: 1_750_000_000))
  #expect(Receipt.time(Date(timeIntervalSince1970: -0.5)) == Date(timeIntervalSince1970: -1))
}

@Test func anIdempotencyKeyIsOneToAHundredOfItsBytesAsTheRegexSays() {
  var texts = [
    "a", "K-1", "till:7.day_3", String(repeating: "x", count: 100), String(repeating: "x", count: 101), "", " ", "a b",
    "é", "e\u{301}", "a/b", "a\n", "a\r\n", "ключ", "a+b", "a=b",
  ]
  texts += (0x20...0x7E).map { String(UnicodeScalar(UInt8($0))) }
  for text in texts {
    // The pattern the byte check replaced, as the oracle.
    let expected = text.wholeMatch(of: /[A-Za-z0-9_.:\-]{1,100}/) != nil
    let read = (try? JSONCursor(.string(text)).idempotencyKey()) != nil
    #expect(read == expected, "'\(text)'")
  }
}
