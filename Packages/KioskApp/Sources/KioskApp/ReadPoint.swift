import Journal

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// One point in the life of a till's files, for readers that take no lock:
/// where the ledger's records end, then the live journal's, then the ledger's again. Every
/// read of a command reads the live journal up to `journalEnd` and the ledger
/// up to `ledgerAfter`, so its reads agree with each other whatever a writer
/// appends meanwhile (`kiosk verify`, `reconcile`).
///
/// Money moves intent first: intent (journal), movement (ledger), outcome
/// (journal). So every movement within `ledgerBefore` has its intent within
/// `journalEnd`, and every outcome within `journalEnd` its movement within
/// `ledgerAfter`. A movement past `ledgerBefore` whose intent the journal
/// does not reach yet happened after the point, and the audit leaves it out.
public struct ReadPoint: Equatable, Sendable {
  /// The ledger's size first.
  public var ledgerBefore: Int
  /// The live journal's size.
  public var journalEnd: Int
  /// The ledger's size last.
  public var ledgerAfter: Int

  /// Takes the point now: the ledger's size, the journal's, the ledger's (a missing file is 0 bytes).
  public static func take(journal: String, ledger: String?) -> ReadPoint {
    let before = ledger.map(size) ?? 0
    let end = size(journal)
    return ReadPoint(ledgerBefore: before, journalEnd: end, ledgerAfter: ledger.map(size) ?? 0)
  }

  /// A point with these sizes.
  public init(ledgerBefore: Int, journalEnd: Int, ledgerAfter: Int) {
    self.ledgerBefore = ledgerBefore
    self.journalEnd = journalEnd
    self.ledgerAfter = ledgerAfter
  }

  /// Where the file's records end now: its size, unless a writer wrote space
  /// ahead, which later appends fill below the size (`DurableJournal.recordsEnd`).
  private static func size(_ path: String) -> Int { DurableJournal.recordsEnd(path: path) }
}
