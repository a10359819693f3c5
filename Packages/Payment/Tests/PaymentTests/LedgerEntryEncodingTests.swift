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
