import Foundation

extension WriteAheadLog {
  /// Appends `entry` as canonical JSON (sorted keys) and syncs it.
  @discardableResult
  public mutating func append(_ entry: some Encodable) throws(JournalError) -> UInt64 {
    try append(encode(entry))
  }

  /// Appends every entry with one sync (group commit).
  @discardableResult
  public mutating func append<Entry: Encodable>(entries: [Entry]) throws(JournalError) -> ClosedRange<UInt64> {
    var payloads: [[UInt8]] = []
    for entry in entries { payloads.append(try encode(entry)) }
    return try append(batch: payloads)
  }

  /// The recovered records decoded as `Entry`, in order.
  public func recoveredEntries<Entry: Decodable>(as type: Entry.Type) throws(JournalError) -> [Entry] {
    try recovery.decodedEntries(as: type)
  }

  func encode(_ entry: some Encodable) throws(JournalError) -> [UInt8] {
    do { return Array(try encoder.encode(entry)) } catch { throw .codec(String(describing: error)) }
  }
}

extension JournalRecovery {
  /// The records decoded as `Entry`, in order.
  public func decodedEntries<Entry: Decodable>(as type: Entry.Type) throws(JournalError) -> [Entry] {
    let decoder = JSONDecoder()
    var entries: [Entry] = []
    entries.reserveCapacity(count)
    for index in 0..<count {
      do { entries.append(try decoder.decode(Entry.self, from: Data(payload(index)))) } catch {
        throw .codec("record \(index + 1): \(error)")
      }
    }
    return entries
  }
}
