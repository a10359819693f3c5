import Foundation
import Journal
import KioskCommands
import Menu
import Payment
import Stock
import Tabs
import Testing
import _ServiceLinkerTestSupport

/// A random record of every kind the writer writes, with values a till makes
/// and values it would not (far-off times, negative counts, fractions of a cent).
private func randomRecord(_ random: inout SeededGenerator) -> KioskRecord {
  randomKioskRecord(
    &random,
    RandomRecordValues(
      tabs: 1...1_000_000,
      money: { random in
        Decimal(
          sign: .plus, exponent: -Int.random(in: 0...3, using: &random),
          significand: Decimal(Int.random(in: 0...99_999, using: &random)))
      },
      chargedAt: { random in
        let seconds =
          Bool.random(using: &random)
          ? Double.random(in: 7e8...9e8, using: &random) : Double(Int.random(in: 0...900_000_000, using: &random))
        return Date(timeIntervalSinceReferenceDate: seconds)
      },
      restockCounts: -5...500, includesDayRecords: false))
}

/// The journal's bytes for a record do not depend on which path wrote them:
/// every record the writer takes is the bytes the encoder gives, so journals
/// written before the writer, and by it, read the same.
@Test func everyRecordTheWriterTakesIsTheEncodersBytes() throws {
  // The journal's own encoder: the writer must give its bytes.
  let encoder = JournalJSONWriter.makeEncoder()
  var random = SeededGenerator(seed: 25)
  var taken = 0
  for _ in 0..<5_000 {
    let record = randomRecord(&random)
    var writer = JournalJSONWriter()
    let expected = Array(try encoder.encode(record))
    guard record.writeJournal(to: &writer) else {
      Issue.record("the writer left a \(record) to the encoder")
      continue
    }
    taken += 1
    #expect(
      writer.bytes == expected,
      "\(String(decoding: writer.bytes, as: UTF8.self)) against \(String(decoding: expected, as: UTF8.self))")
  }
  #expect(taken == 5_000)
}

/// The day's first and last records, and a receipt time far from the present,
/// are the encoder's; a record left to it writes nothing.
@Test func theDaysFirstAndLastRecordsAreLeftToTheEncoder() {
  var writer = JournalJSONWriter()
  #expect(!KioskRecord.dayClosed(day: 3, archive: "kiosk.day-3.journal").writeJournal(to: &writer))
  #expect(!KioskRecord.initialized(menu: MenuState(), stock: StockState()).writeJournal(to: &writer))
  let far = Receipt(
    tab: Tab.ID(raw: 1), total: 4, chargedAt: Date(timeIntervalSinceReferenceDate: 1e16), reference: "r")
  #expect(!KioskRecord.settled(far).writeJournal(to: &writer))
  #expect(writer.bytes.isEmpty)
}

/// The writers list each type's stored properties by hand: one added to a type
/// they write would be left out of the journal, so this fails first, naming it.
@Test func theWritersKnowEveryStoredPropertyOfWhatTheyWrite() {
  func labels(_ value: Any) -> [String] { Mirror(reflecting: value).children.compactMap(\.label) }
  let key = IdempotencyKey("k")
  let tab = Tab.ID(raw: 1)
  let written: [(value: Any, properties: [String], writer: String)] = [
    (
      Receipt(tab: tab, total: 1, chargedAt: Date(), reference: "r", key: key),
      ["tab", "total", "chargedAt", "reference", "key"], "KioskRecord+JournalEncoding.swift (JournalJSONWriter.receipt)"
    ),
    (
      PaymentIntent(kind: .charge, key: key, tab: tab, amount: 1), ["kind", "key", "tab", "amount", "charge"],
      "KioskRecord+JournalEncoding.swift"
    ),
    (
      ProcessorLedger.Entry(kind: .charge, key: key, reference: "r", amount: 1),
      ["kind", "key", "reference", "amount", "charge"], "ProcessorLedger+JournalEncoding.swift"
    ),
    (Tab(customer: "Ada"), ["customer", "lines"], "KioskRecord+JournalEncoding.swift (JournalJSONWriter.tab)"),
    (TabsState(), ["open", "nextID", "settled"], "KioskCheckpoint+JournalEncoding.swift"),
    (SettledTabs(), ["count", "total"], "KioskCheckpoint+JournalEncoding.swift"),
    (key, ["raw"], "every writer"), (tab, ["raw"], "every writer"),
    (Item.ID(raw: 1), ["raw"], "KioskRecord+JournalEncoding.swift"),
  ]
  for (value, properties, writer) in written {
    #expect(labels(value) == properties, "\(type(of: value)) changed its stored properties: write them in \(writer)")
  }
}

/// Every record reads by hand as `JSONDecoder` reads it: the same values,
/// the same decimal texts, the same times to the bit. Replay reads records
/// this way, so a difference would change the state a journal rebuilds.
@Test func everyRecordReadsByHandAsTheDecoderReadsIt() throws {
  let encoder = JournalJSONWriter.makeEncoder()
  var random = SeededGenerator(seed: 52)
  let tab = Tab.ID(raw: 7)
  var records = (0..<5_000).map { _ in randomRecord(&random) }
  for amount in ["0", "0.001", "1234567.891", "-4.5", "999999999999999999", "123456789012.345678"] {
    records.append(
      .paymentIntent(PaymentIntent(kind: .charge, key: IdempotencyKey("k"), tab: tab, amount: Decimal(string: amount)!))
    )
  }
  for seconds in [0, -1.5, 1e-4, 0.1, 123_456_789.123_456_78, 999_999_999_999_999] {
    records.append(
      .settled(
        Receipt(tab: tab, total: 4.5, chargedAt: Date(timeIntervalSinceReferenceDate: seconds), reference: "r")))
  }
  var read = 0
  for record in records {
    let bytes = Array(try encoder.encode(record))
    let decoded = try JSONDecoder().decode(KioskRecord.self, from: Data(bytes))
    guard let byHand = KioskRecord.readJournal(bytes[...]) else {
      Issue.record("not read by hand: \(String(decoding: bytes, as: UTF8.self))")
      continue
    }
    read += 1
    #expect(byHand == decoded, "\(String(decoding: bytes, as: UTF8.self))")
    // Equal decimals can differ in form; the journal writes their text, so that must agree too.
    #expect(String(describing: byHand) == String(describing: decoded), "\(String(decoding: bytes, as: UTF8.self))")
  }
  #expect(read == records.count)
}

/// Bytes in any form but the writer's are the decoder's, whole: the reader
/// answers nil, and the decoder still reads them (or refuses them) as before.
@Test func recordsInAnotherFormAreLeftToTheDecoder() throws {
  let day = KioskRecord.dayClosed(day: 3, archive: "kiosk.day-3.journal")
  let first = KioskRecord.initialized(menu: MenuState(), stock: StockState())
  for record in [day, first] {
    #expect(KioskRecord.readJournal(Array(try JournalJSONWriter.makeEncoder().encode(record))[...]) == nil)
  }
  let other = [
    #"{"opened": {"customer":"Ada","tab":{"raw":1}}}"#,  // whitespace
    #"{"opened":{"customer":"\u0041da","tab":{"raw":1}}}"#,  // a letter escaped
    #"{"opened":{"customer":"Ada","extra":1,"tab":{"raw":1}}}"#,  // a key the writer does not write
    #"{"paymentIntent":{"_0":{"amount":4.5e0,"key":"k","kind":"charge","tab":{"raw":1}}}}"#,  // an exponent
    #"{"restocked":{"count":1,"ingredient":"gold"}}"#,  // no such ingredient
    #"{"added":{"item":{"raw":01},"tab":{"raw":1}}}"#,  // a leading zero
    #"{"opened":{"customer":"Ada","tab":{"raw":1}}} "#,  // something after
  ]
  for text in other {
    #expect(KioskRecord.readJournal(Array(text.utf8)[...]) == nil, "\(text)")
  }
  #expect(
    try JSONDecoder().decode(KioskRecord.self, from: Data(other[1].utf8))
      == .opened(tab: Tab.ID(raw: 1), customer: "Ada"))
}
