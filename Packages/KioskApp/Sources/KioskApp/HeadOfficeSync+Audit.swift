import HeadOffice
import Journal
import KioskCommands

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension HeadOfficeSync {
  /// What is wrong with a day as the head office holds it (`stored`), found by
  /// replaying its records the way `sync` replayed the archive: whether they
  /// replay at all and close the day, and whether the digest, the totals, the
  /// sales, the stock and each record's own fields are what that replay gives;
  /// and, for a day held with its file's identity, whether its records make
  /// the very file the till shipped (a body respelled to read the same is
  /// found there, as the digest is over the records' values). Empty when the day agrees with itself. `kiosk-hq verify` runs it on every
  /// day (`PostgresHeadOffice.verify(audit:)`).
  public static func audit(_ stored: TillDay) -> [String] {
    var builder = DayBuilder()
    let decoder = JSONDecoder()
    // A day held with its file's identity holds each record's bytes as that
    // version of the journal wrote them; one shipped before, in the encoder's
    // form, which is what a journal of version 2 holds.
    let held = stored.file != nil
    let version = stored.file.map { UInt16(clamping: $0.version) } ?? JournalFormat.encoderVersion
    for record in stored.records {
      do {
        let bytes = Array(record.body.utf8)
        // Held as the file's bytes, a record is compared as those bytes; held in the
        // encoder's form, as the encoder writes it again (an altered spelling shows).
        let payload = held ? bytes : nil
        switch record.kind {
        case "checkpoint" where !held && record.body.isEmpty:
          guard !builder.shipsCheckpoint(at: record.sequence) else {
            return [
              "record \(record.sequence), a checkpoint the replay needs, is held without its state (a day shipped "
                + "before sync sent checkpoints cannot be replayed; the checks in SQL still ran)"
            ]
          }
          builder.takeUnshippedCheckpoint(record.sequence)
        case "checkpoint":
          let checkpoint = try KioskCheckpoint.decoded(from: bytes[...], version: version, decoder: decoder)
          try builder.take(record.sequence, .checkpoint(checkpoint), payload: payload)
        case "lost":
          guard let (lost, payload) = lostRecord(record.body, held: held) else {
            return ["record \(record.sequence) is lost, of no known kind '\(record.body)'"]
          }
          try builder.take(record.sequence, .lost(lost), payload: payload)
        default:
          let decoded = try KioskRecord.decoded(from: bytes[...], version: version, decoder: decoder)
          try builder.take(record.sequence, .record(decoded), payload: payload)
        }
      } catch {
        return ["its records do not replay: record \(record.sequence) (\(record.kind)): \(error)"]
      }
    }
    guard let rebuilt = builder.finish(till: stored.till, number: stored.day, archive: "")?.day else {
      return ["its records do not end with day \(stored.day)'s close"]
    }
    var problems: [String] = []
    if rebuilt.digest != stored.digest {
      problems.append("its records replay to digest '\(rebuilt.digest)', but the till's digest is '\(stored.digest)'")
    }
    if let (held, replayed) = zip(stored.records, rebuilt.records).first(where: { $0 != $1 }) {
      problems.append("record \(held.sequence) is held as \(describe(held)), but its body says \(describe(replayed))")
    }
    if (rebuilt.charged, rebuilt.refunded, rebuilt.settledTabs) != (stored.charged, stored.refunded, stored.settledTabs)
    {
      problems.append(
        "charged \(stored.charged), refunded \(stored.refunded), \(stored.settledTabs) tabs settled, but its records "
          + "replay to \(rebuilt.charged), \(rebuilt.refunded), \(rebuilt.settledTabs)")
    }
    if rebuilt.sales != stored.sales {
      problems.append("its sales by item differ from what its records replay to")
    }
    if rebuilt.stock != stored.stock {
      problems.append("its stock at opening and closing differs from what its records replay to")
    }
    if let file = stored.file {
      let crc = (try? fileImage(of: stored, file: file)).map { CRC32C.checksum($0) }
      if crc != file.crc {
        problems.append(
          "its records do not make the file the till shipped (CRC-32C \(crc.map(hex) ?? "none"), "
            + "shipped as \(hex(file.crc)))")
      }
    }
    return problems
  }

  /// How a lost record is held when its file's bytes are: its kind, its
  /// placeholder's size and first byte (`lostRecord` reads it back).
  static func lostBody(_ lost: LostRecord, payload: [UInt8]) -> String {
    "\(lost.name) \(payload.count) \(payload.first ?? 0)"
  }

  /// A lost record as held: its kind alone (shipped before the journal's
  /// bytes were, or before its kind was: unknown), or its kind, its payload's
  /// size and first byte, which make the placeholder `repair` wrote.
  static func lostRecord(_ body: String, held: Bool) -> (LostRecord, [UInt8]?)? {
    guard held else { return (body.isEmpty ? .unknown : LostRecord(name: body)).map { ($0, nil) } }
    let fields = body.split(separator: " ").map(String.init)
    guard fields.count == 3, let lost = LostRecord(name: fields[0]), let size = Int(fields[1]), size >= 1,
      size <= JournalFormat.maxCheckpointPayload, let first = UInt8(fields[2])
    else { return nil }
    return (lost, [first] + [UInt8](repeating: 0, count: size - 1))
  }

  /// A CRC-32C as eight hex digits, for a message.
  private static func hex(_ crc: UInt32) -> String { Hex.lowercase(UInt64(crc), digits: 8) }

  /// A record's fields, for a message: `settled, tab 3, amount 4.5`.
  private static func describe(_ record: TillDay.Record) -> String {
    [record.kind, record.tab.map { "tab \($0)" }, record.amount.map { "amount \($0)" }].compactMap(\.self)
      .joined(separator: ", ")
  }
}
