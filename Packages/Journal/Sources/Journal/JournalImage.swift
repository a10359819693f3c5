/// A whole journal file built from its parts: the header's salt and version,
/// then each record's type, sequence number and payload, framed as a writer
/// frames them. A copy of a journal kept elsewhere (the head office keeps each
/// closed day's) is turned back into the very bytes of the file it was read from.
public enum JournalImage {
  /// One record of the file.
  public struct Record: Equatable, Sendable {
    /// `JournalFormat.commandType`, `checkpointType` or `lostType`.
    public var type: UInt8
    /// Its sequence number, from 1.
    public var sequence: UInt64
    /// Its payload, as written.
    public var payload: [UInt8]

    /// A record.
    public init(type: UInt8, sequence: UInt64, payload: [UInt8]) {
      self.type = type
      self.sequence = sequence
      self.payload = payload
    }
  }

  /// Why the parts make no file a writer could have written.
  public struct Refusal: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong, in a sentence.
    public var description: String

    /// A refusal saying `description`.
    public init(description: String) { self.description = description }
  }

  /// The file's bytes: the header, then each record framed with the salt's seed.
  /// Refused unless the version is one this code reads, the records are
  /// numbered 1, 2, 3 … and each payload fits its type.
  public static func bytes(salt: UInt64, version: UInt16, records: [Record]) throws(Refusal) -> [UInt8] {
    guard JournalFormat.readableVersions.contains(version) else {
      throw Refusal(description: "version \(version) is not one this code reads")
    }
    var bytes = JournalFormat.header(salt: salt, version: version)
    let seed = JournalFormat.recordSeed(salt: salt)
    for (index, record) in records.enumerated() {
      guard record.sequence == UInt64(index + 1) else {
        throw Refusal(description: "record \(index + 1) is numbered \(record.sequence)")
      }
      guard let limit = JournalFormat.maxPayload(ofType: record.type), record.payload.count <= limit else {
        throw Refusal(description: "record \(record.sequence) has no valid type or is too long")
      }
      JournalFormat.appendRecord(record.payload, sequence: record.sequence, seed: seed, type: record.type, to: &bytes)
    }
    return bytes
  }
}
