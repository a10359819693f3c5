import HeadOffice
import Journal

extension HeadOfficeSync {
  /// The file a day held with its file's identity makes: the journal's header
  /// (`file`'s version and salt) and each record's bytes framed as the journal
  /// frames them (`JournalImage`). It is the till's very file when its
  /// CRC-32C is `file.crc`; `heal` writes it, and `audit` checks it.
  static func fileImage(of held: TillDay, file: TillDay.File) throws(JournalImage.Refusal) -> [UInt8] {
    try JournalImage.bytes(
      salt: file.salt, version: UInt16(clamping: file.version),
      records: held.records.map { record throws(JournalImage.Refusal) in try imageRecord(record) })
  }

  /// The record as the journal frames it: a lost one is the placeholder
  /// `repair` wrote (its first byte, then zeros, to its size).
  private static func imageRecord(_ record: TillDay.Record) throws(JournalImage.Refusal) -> JournalImage.Record {
    let sequence = UInt64(max(0, record.sequence))
    switch record.kind {
    case "checkpoint":
      return JournalImage.Record(
        type: JournalFormat.checkpointType, sequence: sequence, payload: Array(record.body.utf8))
    case "lost":
      guard let (_, payload) = lostRecord(record.body, held: true), let payload else {
        throw JournalImage.Refusal(description: "record \(record.sequence) is lost, held as '\(record.body)'")
      }
      return JournalImage.Record(type: JournalFormat.lostType, sequence: sequence, payload: payload)
    default:
      return JournalImage.Record(type: JournalFormat.commandType, sequence: sequence, payload: Array(record.body.utf8))
    }
  }
}
