#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension WriteAheadLog {
  /// Appends `entry` as canonical JSON (sorted keys) and syncs it.
  @discardableResult
  public mutating func append(_ entry: some Encodable) throws(JournalError) -> UInt64 {
    try append(encode(entry))
  }

  /// Appends `entry`, which writes its own bytes (the same `JSONEncoder` would
  /// write, at a fraction of the cost; in a journal of format 3, its canonical
  /// form), and syncs it. In format 3 an entry that writes nothing is refused
  /// (`codec`), nothing written: the encoder's bytes are not that form.
  @discardableResult
  public mutating func append(_ entry: some JournalEncodable) throws(JournalError) -> UInt64 {
    var writer = JournalJSONWriter.reservingFrame(version: version)
    guard entry.writeJournal(to: &writer) else { return try append(encodeCommand(entry)) }
    return try append(framed: &writer.bytes)
  }

  /// Appends every entry with one sync (group commit).
  @discardableResult
  public mutating func append<Entry: Encodable>(entries: [Entry]) throws(JournalError) -> ClosedRange<UInt64> {
    var payloads: [[UInt8]] = []
    for entry in entries { payloads.append(try encode(entry)) }
    return try append(batch: payloads)
  }

  /// Appends every entry, each writing its own bytes, with one sync (group commit).
  @discardableResult
  public mutating func append<Entry: JournalEncodable>(entries: [Entry]) throws(JournalError) -> ClosedRange<UInt64> {
    var payloads: [[UInt8]] = []
    for entry in entries { payloads.append(try encodeCommand(entry)) }
    return try append(batch: payloads)
  }

  /// Appends `entry` as a checkpoint record (canonical JSON), syncs it and indexes it.
  @discardableResult
  public mutating func appendCheckpoint(_ entry: some Encodable) throws(JournalError) -> UInt64 {
    try appendCheckpoint(encode(entry))
  }

  /// Appends `entry`, which writes its own bytes, as a checkpoint record, syncs it and indexes it.
  @discardableResult
  public mutating func appendCheckpoint(_ entry: some JournalEncodable) throws(JournalError) -> UInt64 {
    try appendCheckpoint(encode(entry))
  }

  /// The recovered records decoded as `Entry`, in order.
  public func recoveredEntries<Entry: Decodable>(as type: Entry.Type) throws(JournalError) -> [Entry] {
    try recovery.decodedEntries(as: type)
  }

  func encode(_ entry: some Encodable) throws(JournalError) -> [UInt8] {
    do { return Array(try encoder.encode(entry)) } catch { throw .codec(String(describing: error)) }
  }

  /// The entry's own bytes, or the encoder's when it leaves this one to it.
  func encode(_ entry: some JournalEncodable) throws(JournalError) -> [UInt8] {
    try JournalJSONWriter.bytes(of: entry, version: version, encoder: encoder)
  }

  /// The entry's own bytes; the encoder's only in a journal older than format 3.
  func encodeCommand(_ entry: some JournalEncodable) throws(JournalError) -> [UInt8] {
    var writer = JournalJSONWriter(version: version)
    if entry.writeJournal(to: &writer) { return writer.bytes }
    guard !writer.canonical else {
      throw .codec("\(type(of: entry)) has no canonical form to write into a journal of format \(version)")
    }
    return try encode(entry)
  }

  /// Writes back lost entries known again from elsewhere, each encoded as
  /// `append` encodes it (`restoreLost(path:environment:lockWait:records:)`).
  public static func restoreLost<Entry: Encodable>(
    path: String, environment: Environment, lockWait: Duration = defaultLockWait, entries: [UInt64: Entry]
  ) throws(JournalError) -> [UInt64] {
    let encoder = makeEncoder()
    var records: [UInt64: [UInt8]] = [:]
    for (sequence, entry) in entries {
      do { records[sequence] = Array(try encoder.encode(entry)) } catch { throw .codec(String(describing: error)) }
    }
    return try restoreLost(path: path, environment: environment, lockWait: lockWait, records: records)
  }
}

extension JournalRecovery {
  /// The records from index `start` on, decoded as `Entry`, in order.
  ///
  /// A placeholder `repair` left for a lost checkpoint is passed over: the
  /// records around it hold the same state. One for a lost command is refused
  /// (`lostRecord`), since what follows it cannot be replayed without it, and
  /// so is a lost checkpoint that is the first record read (a later day's
  /// opening checkpoint, which nothing before it restates), both
  /// unless `skippingLost`, for readers that only collect entries (the
  /// processor's ledger, which counts them in `lostCount`).
  public func decodedEntries<Entry: Decodable>(
    as type: Entry.Type, from start: Int = 0, skippingLost: Bool = false
  ) throws(JournalError) -> [Entry] {
    let decoder = JSONDecoder()
    return try entries(from: start, skippingLost: skippingLost) { index throws(JournalError) in
      try decoding(index) { try decoder.decode(Entry.self, from: Data(payload(index))) }
    }
  }

  /// The records from index `start` on, as `Entry` reads them itself, or
  /// decoded when it leaves the bytes to `JSONDecoder`; otherwise as
  /// `decodedEntries(as:from:skippingLost:)` for any `Decodable`.
  public func decodedEntries<Entry: JournalDecodable>(
    as type: Entry.Type, from start: Int = 0, skippingLost: Bool = false
  ) throws(JournalError) -> [Entry] {
    let decoder = JSONDecoder()
    return try entries(from: start, skippingLost: skippingLost) { index throws(JournalError) in
      try decoding(index) { try Entry.decoded(from: payload(index), version: version, decoder: decoder) }
    }
  }

  /// The records from `start` on, each made by `entry`, with placeholders
  /// for lost records passed over or refused as `decodedEntries` says.
  private func entries<Entry>(
    from start: Int, skippingLost: Bool, _ entry: (Int) throws(JournalError) -> Entry
  ) throws(JournalError) -> [Entry] {
    var entries: [Entry] = []
    entries.reserveCapacity(max(0, count - start))
    for index in start..<max(start, count) {
      if let lost = lost(index) {
        // A lost checkpoint is passed over when records before it hold its
        // state; the first record read has none before it (a later day's
        // opening checkpoint), so what follows cannot be replayed.
        guard lost == .checkpoint && index > 0 || skippingLost else { throw .lostRecord(sequence: sequence(index)) }
        continue
      }
      entries.append(try entry(index))
    }
    return entries
  }

  /// How many records read are placeholders for records lost to damage.
  public var lostCount: Int { frames.count { $0.type == JournalFormat.lostType } }

  /// Record `index` decoded as `Entry`.
  public func decodedEntry<Entry: Decodable>(_ index: Int, as type: Entry.Type) throws(JournalError) -> Entry {
    try decoding(index) { try JSONDecoder().decode(Entry.self, from: Data(payload(index))) }
  }

  /// Record `index` as `Entry` reads it itself, or decoded when it leaves the bytes to `JSONDecoder`.
  public func decodedEntry<Entry: JournalDecodable>(_ index: Int, as type: Entry.Type) throws(JournalError) -> Entry {
    try decoding(index) { try Entry.decoded(from: payload(index), version: version, decoder: JSONDecoder()) }
  }

  /// What `decode` gives for record `index`; its failure as a `codec` error naming the record.
  private func decoding<Entry>(_ index: Int, _ decode: () throws -> Entry) throws(JournalError) -> Entry {
    do { return try decode() } catch { throw .codec("record \(sequence(index)): \(JournalError.decoding(error))") }
  }
}

extension JournalError {
  /// Why an entry did not decode, in one line: a `DecodingError`'s own
  /// description is a multi-line dump of its context.
  public static func decoding(_ error: any Error) -> String {
    guard let error = error as? DecodingError else { return "\(error)" }
    func path(_ context: DecodingError.Context) -> String {
      let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
      return keys.isEmpty ? "" : " at \(keys.joined(separator: "."))"
    }
    switch error {
    case .keyNotFound(let key, let context): return "missing key '\(key.stringValue)'\(path(context))"
    case .typeMismatch(let type, let context): return "not a \(type)\(path(context))"
    case .valueNotFound(let type, let context): return "no \(type) value\(path(context))"
    case .dataCorrupted(let context): return "not valid JSON of this kind\(path(context))"
    @unknown default: return "\(error)"
    }
  }
}
