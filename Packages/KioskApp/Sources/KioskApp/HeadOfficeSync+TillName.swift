import Journal
import KioskCommands

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension HeadOfficeSync {
  /// The name the till whose live journal is `journal` keeps for itself: the
  /// last `tillNamed` record, or the last checkpoint's name, of its live day
  /// (read as it stands, without a lock, from its last checkpoint on), or of
  /// its newest archive when there is no live day. Nil while the till has none. A name no till may have
  /// (the bytes were altered) is refused, not used.
  public static func keptName(journal: String) throws -> String? {
    let path: String
    if FileManager.default.fileExists(atPath: journal) {
      path = journal
    } else if let newest = KioskSegments.archives(of: journal).last(where: { !$0.setAside }) {
      path = newest.path
    } else {
      return nil
    }
    // From the last checkpoint on, where its index says it is: every
    // checkpoint carries the name, so nothing before the last one is read.
    let recovery: JournalRecovery
    do { recovery = try DurableJournal.read(path: path) } catch {
      throw KioskDaysError.file(path: path, reason: error.description)
    }
    let decoder = JSONDecoder()
    var name: String?
    for index in 0..<recovery.count where recovery.lost(index) == nil {
      let payload = Array(recovery.payload(index))[...]
      do {
        if recovery.isCheckpoint(index) {
          name = try KioskCheckpoint.decoded(from: payload, version: recovery.version, decoder: decoder).till
        } else if case .tillNamed(let till) = try KioskRecord.decoded(
          from: payload, version: recovery.version, decoder: decoder)
        {
          name = till
        }
      } catch {
        throw KioskDaysError.file(
          path: path, reason: "record \(recovery.sequence(index)): \(JournalError.decoding(error))")
      }
    }
    if let name, !isTillName(name) {
      throw KioskDaysError.file(
        path: path, reason: "it names the till \(name.debugDescription), which is no till's name")
    }
    return name
  }
}
