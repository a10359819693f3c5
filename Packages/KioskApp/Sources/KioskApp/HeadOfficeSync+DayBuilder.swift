import HeadOffice
import Journal
import KioskCommands

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension HeadOfficeSync {
  /// A closed day as the head office stores it, built one entry at a time by
  /// the Z report's replay: from an archive when the till ships it, from the
  /// head office's rows when `kiosk-hq verify` audits it.
  struct DayBuilder {
    private var report = ZReport.Builder()
    private var encoder = JournalJSONWriter.makeEncoder()
    /// The records so far, as shipped.
    private(set) var records: [TillDay.Record] = []
    /// The first half of the day's digest so far, `records crc32c:` and eight
    /// hex digits at the end: the CRC-32C of each record in the encoder's form
    /// and a newline, in order, a checkpoint or a lost record counted as its
    /// kind (a checkpoint's content is the state, which the second half names).
    private var recordsCRC: UInt32 = 0
    private var last: KioskRecord?
    /// What the day's opening checkpoint says it continues: the day before, as it ended.
    private(set) var continues: ClosedDay?

    /// Whether a checkpoint numbered `sequence` restores the state (the day's
    /// first, or the first after a lost command): a day held without the
    /// content of every checkpoint (shipped before the journal's bytes were)
    /// must have those, since a head office replaying the day needs no other.
    func shipsCheckpoint(at sequence: Int) -> Bool { report.needsCheckpoint(at: sequence) }

    /// Takes the day's entry numbered `sequence`. With `payload`, the record's
    /// bytes as the journal holds them, the record is shipped as those bytes
    /// (a lost one as its kind, payload size and first byte: what `repair`
    /// wrote); without, in the encoder's form (a day shipped before the
    /// journal's bytes were, read back for an audit). The digest is the same
    /// either way: it is over each record in the encoder's form.
    mutating func take(_ sequence: Int, _ entry: KioskJournalReader.Entry, payload: [UInt8]? = nil) throws {
      let record: TillDay.Record
      let digestText: String
      switch entry {
      case .record(let journaled):
        last = journaled
        digestText = String(decoding: try JournalJSONWriter.bytes(of: journaled, encoder: encoder), as: UTF8.self)
        record = TillDay.Record(
          sequence: sequence, kind: journaled.kind, tab: journaled.tab, amount: journaled.amount,
          body: payload.map { String(decoding: $0, as: UTF8.self) } ?? digestText)
      case .checkpoint(let checkpoint):
        if sequence == 1 { continues = checkpoint.previousDay }
        digestText = "checkpoint"
        var body = ""
        if let payload {
          body = String(decoding: payload, as: UTF8.self)
        } else if shipsCheckpoint(at: sequence) {
          body = String(decoding: try JournalJSONWriter.bytes(of: checkpoint, encoder: encoder), as: UTF8.self)
        }
        record = TillDay.Record(sequence: sequence, kind: "checkpoint", body: body)
      case .lost(let lost):
        digestText = "lost"
        let body = payload.map { lostBody(lost, payload: $0) } ?? lost.name
        record = TillDay.Record(sequence: sequence, kind: "lost", body: body)
      }
      try report.take(sequence, entry)
      records.append(record)
      digest(digestText)
    }

    /// Adds a record's text, and a newline, to the records' digest.
    private mutating func digest(_ text: String) {
      var line = text + "\n"
      recordsCRC = line.withUTF8 { CRC32C.update(recordsCRC, UnsafeRawBufferPointer($0)) }
    }

    /// Takes a checkpoint shipped without its content, which the replay does not need.
    mutating func takeUnshippedCheckpoint(_ sequence: Int) {
      records.append(TillDay.Record(sequence: sequence, kind: "checkpoint", body: ""))
      digest("checkpoint")
    }

    /// The day `number` of `till`, and how it ended as the next day's opening
    /// checkpoint names it (`archive` is its file's name); nil unless its last
    /// record closes that very day.
    func finish(till: String, number: Int, archive: String) -> (day: TillDay, ending: ClosedDay)? {
      guard case .dayClosed(let closed, _) = last, closed == number else { return nil }
      let z = report.report(unreadTailBytes: 0)
      let ending = ClosedDay(
        day: closed, archive: archive, lastSequence: UInt64(records.count),
        carriedDigest: z.closingState.carriedOver.digest)
      let day = TillDay(
        till: till, day: number,
        digest: "records crc32c:" + Hex.lowercase(UInt64(recordsCRC), digits: 8) + ", state " + z.closingState.digest,
        records: records,
        sales: z.sales.map { TillDay.Sale(item: $0.item.raw, name: $0.name, count: $0.count, total: $0.total) },
        charged: z.charged, refunded: z.refunded, settledTabs: z.settledTabs,
        stock: Set(z.openingStock.units.keys).union(z.closingStock.units.keys).sorted { $0.rawValue < $1.rawValue }
          .map { ingredient in
            TillDay.Stock(
              ingredient: ingredient.rawValue, opening: z.openingStock.units[ingredient] ?? 0,
              closing: z.closingStock.units[ingredient] ?? 0)
          })
      return (day, ending)
    }
  }
}

extension LostRecord {
  /// The placeholder's kind, as shipped in a lost record's body.
  var name: String {
    switch self {
    case .command: "command"
    case .checkpoint: "checkpoint"
    case .unknown: "unknown"
    }
  }

  /// The placeholder named `name`.
  init?(name: String) {
    switch name {
    case "command": self = .command
    case "checkpoint": self = .checkpoint
    case "unknown": self = .unknown
    default: return nil
    }
  }
}
