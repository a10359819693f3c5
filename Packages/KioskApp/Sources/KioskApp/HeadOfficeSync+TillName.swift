import Foundation
import KioskCommands

extension HeadOfficeSync {
  /// The name the till whose live journal is `journal` keeps for itself: the
  /// last `tillNamed` record, or the last checkpoint's name, of its live day
  /// (read as it stands, without a lock), or of its newest archive when there
  /// is no live day. Nil while the till has none. A name no till may have
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
    var name: String?
    _ = try KioskJournalReader.walk(path: path) { _, entry in
      switch entry {
      case .checkpoint(let checkpoint): name = checkpoint.till
      case .record(.tillNamed(let till)): name = till
      default: break
      }
    }
    if let name, !isTillName(name) {
      throw KioskDaysError.file(
        path: path, reason: "it names the till \(name.debugDescription), which is no till's name")
    }
    return name
  }
}
