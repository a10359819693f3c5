import Foundation
import HeadOffice
import Journal
import KioskCommands

extension HeadOfficeSync {
  /// What is wrong with a day as the head office holds it (`stored`), found by
  /// replaying its records the way `sync` replayed the archive: whether they
  /// replay at all and close the day, and whether the digest, the totals, the
  /// sales, the stock and each record's own fields are what that replay gives.
  /// Empty when the day agrees with itself. `kiosk-hq verify` runs it on every
  /// day (`PostgresHeadOffice.verify(audit:)`).
  public static func audit(_ stored: TillDay) -> [String] {
    var builder = DayBuilder()
    let decoder = JSONDecoder()
    for record in stored.records {
      do {
        switch record.kind {
        case "checkpoint" where record.body.isEmpty:
          guard !builder.shipsCheckpoint(at: record.sequence) else {
            return [
              "record \(record.sequence), a checkpoint the replay needs, is held without its state (a day shipped "
                + "before sync sent checkpoints cannot be replayed; the checks in SQL still ran)"
            ]
          }
          builder.takeUnshippedCheckpoint(record.sequence)
        case "checkpoint":
          let checkpoint = try KioskCheckpoint.decoded(from: Array(record.body.utf8)[...], decoder: decoder)
          try builder.take(record.sequence, .checkpoint(checkpoint))
        case "lost":
          // A lost record shipped before its kind was sent: its kind is unknown.
          guard let lost = record.body.isEmpty ? .unknown : LostRecord(name: record.body) else {
            return ["record \(record.sequence) is lost, of no known kind '\(record.body)'"]
          }
          try builder.take(record.sequence, .lost(lost))
        default:
          try builder.take(record.sequence, .record(try decoder.decode(KioskRecord.self, from: Data(record.body.utf8))))
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
    return problems
  }

  /// A record's fields, for a message: `settled, tab 3, amount 4.5`.
  private static func describe(_ record: TillDay.Record) -> String {
    [record.kind, record.tab.map { "tab \($0)" }, record.amount.map { "amount \($0)" }].compactMap(\.self)
      .joined(separator: ", ")
  }
}
