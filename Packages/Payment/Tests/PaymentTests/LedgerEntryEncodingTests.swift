import Foundation
import Journal
import Payment
import Testing

/// Every ledger entry the writer writes is the bytes the journal's encoder gives.
@Test(arguments: [
  ProcessorLedger.Entry(
    kind: .charge, key: IdempotencyKey(journalSalt: 0xC0FFEE, sequence: 7, tab: 3), reference: "ch_1f_1", amount: 4.5),
  ProcessorLedger.Entry(
    kind: .refund, key: IdempotencyKey("k_/\"odd\"_1"), reference: "re_1f_2", amount: Decimal(string: "12.345")!,
    charge: "ch_1f_1"),
  ProcessorLedger.Entry(kind: .charge, key: IdempotencyKey(""), reference: "é\n", amount: 0),
])
func aLedgerEntryIsWrittenAsTheEncoderWritesIt(entry: ProcessorLedger.Entry) throws {
  // The journal's own encoder: the writer must give its bytes.
  let encoder = JournalJSONWriter.makeEncoder()
  var writer = JournalJSONWriter()
  #expect(entry.writeJournal(to: &writer))
  #expect(String(decoding: writer.bytes, as: UTF8.self) == String(decoding: try encoder.encode(entry), as: UTF8.self))
}

/// Every ledger entry reads by hand as `JSONDecoder` reads it, amounts' texts
/// included; bytes in another form are left to the decoder.
@Test func aLedgerEntryReadsByHandAsTheDecoderReadsIt() throws {
  let encoder = JournalJSONWriter.makeEncoder()
  var entries: [ProcessorLedger.Entry] = []
  for (index, amount) in ["0", "4.5", "12.345", "999999.99", "0.001", "100"].enumerated() {
    for kind in [ProcessorLedger.Entry.Kind.charge, .refund] {
      entries.append(
        ProcessorLedger.Entry(
          kind: kind, key: IdempotencyKey(journalSalt: UInt64(index), sequence: 7, tab: index),
          reference: "ch_\(index)_\"x\"/\n", amount: Decimal(string: amount)!,
          charge: kind == .refund ? "ch_é_\(index)" : nil))
    }
  }
  for entry in entries {
    let bytes = Array(try encoder.encode(entry))
    let decoded = try JSONDecoder().decode(ProcessorLedger.Entry.self, from: Data(bytes))
    let byHand = try #require(
      ProcessorLedger.Entry.readJournal(bytes[...]), "\(String(decoding: bytes, as: UTF8.self))")
    #expect(byHand == decoded)
    #expect(byHand.amount.description == decoded.amount.description)
  }
  for other in [
    #"{"amount":4.5,"key":"k","kind":"charge","reference":"r","extra":1}"#,
    #"{"amount": 4.5,"key":"k","kind":"charge","reference":"r"}"#,
    #"{"amount":4.5,"key":"k","kind":"gift","reference":"r"}"#,
  ] {
    #expect(ProcessorLedger.Entry.readJournal(Array(other.utf8)[...]) == nil, "\(other)")
  }
}
