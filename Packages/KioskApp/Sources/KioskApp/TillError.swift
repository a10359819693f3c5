import CanonicalJSON
import Journal
import KioskCommands
import Payment
import Tabs

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Why the till refused a command or a journal, or could not finish one.
public enum TillError: Error, Equatable, CustomStringConvertible {
  /// A thousand candidate keys in a row were already used at the processor.
  case noFreshKey
  /// The journal records payments, but the processor's ledger was just created: it is missing.
  case ledgerMissing(path: String)
  /// The journal is new, but the processor's ledger already holds movements, none of them under its keys.
  case ledgerOfAnotherJournal(path: String, movements: Int)
  /// The journal is a closed day's archive, not the live journal.
  case closedDay(day: Int, path: String)
  /// A file already has the archive's name and is not this day's journal.
  case archiveExists(path: String)
  /// A charge of the tab is in flight: the command waits for its outcome.
  case paymentInFlight(tab: Tab.ID)
  /// No attempt of the charge under `key` got an answer before the deadline.
  case unresolved(key: IdempotencyKey, attempts: Int)
  /// The till's store stopped after a failure: it takes no more commands.
  case tornDown
  /// The processor holds a charge of `tab` this journal has no record of, of another amount than its total.
  case heldChargeDiffers(tab: Tab.ID, reference: String, charged: Decimal, total: Decimal)
  /// The ledger lost entries to damage that the journal names: the day's money cannot be closed.
  case ledgerLostMovements(path: String, mismatches: Int)
  /// The ledger lacks entries the journal holds the processor's answers for: no money moves until they are back.
  case ledgerLacksKnownEntries(path: String, numbers: [Int])
  /// The processor holds a charge of a tab the journal has open: closing would carry it over unsettled.
  case heldChargeOfOpenTab(tab: Tab.ID, reference: String, amount: Decimal)
  /// The processor's ledger could not be opened.
  case ledgerUnreadable(JournalError)
  /// The journal holds a day that is already closed and archived beside it.
  case dayAlreadyArchived(day: Int, path: String, archive: String)
  /// The processor's ledger is another file than the one the live day began with.
  case ledgerNotTheDays(path: String)
  /// The ledger holds `movements` under other keys since the journal's day
  /// began: the journal is older than the ledger, or the ledger another till's.
  case ledgerMovedOn(path: String, journal: String, movements: Int)
  /// An amount at or past the canonical form's limit, in any version: nothing was written.
  case amountPastLimit(amount: Decimal)
  /// An amount in fractions of a cent, which a new journal (version 3, the
  /// canonical form) cannot hold: nothing was written.
  case amountInFractionsOfACent(amount: Decimal)
  /// A till's name must be 1 to 64 of `A-Z a-z 0-9 . _ -`.
  case invalidTillName(String)

  public var description: String {
    switch self {
    case .invalidTillName(let name):
      "a till's name is 1 to 64 of A-Z a-z 0-9 . _ -, not \(name.debugDescription)"
    case .amountInFractionsOfACent(let amount):
      "the amount \(exactMoney(amount)) cannot be journaled: a new journal (version 3) holds money in whole cents; "
        + "nothing was written"
    case .amountPastLimit(let amount):
      "the amount \(exactMoney(amount)) cannot be journaled: the till holds money below "
        + "\(money(minorUnits: CanonicalMoney.limit)); nothing was written"
    case .ledgerUnreadable(let error): "processor ledger: \(error)"
    case .dayAlreadyArchived(let day, let path, let archive):
      "'\(path)' holds day \(day), but day \(day) is already closed and archived as '\(archive)' (a backup restored "
        + "over the live journal?); writing it again could charge its tabs twice: restore the newest live journal"
    case .ledgerNotTheDays(let path):
      "the processor ledger '\(path)' is not the file the live day began with (another till's, or a new file with "
        + "the old name); restore this till's ledger, or pass --processor with its path"
    case .ledgerMovedOn(let path, let journal, let movements):
      "the processor ledger '\(path)' holds \(movements) movement\(movements == 1 ? "" : "s") under another "
        + "journal's keys since '\(journal)' began its day: the journal is older than the ledger (a backup restored "
        + "over a later day, or an archive put back as the live journal?) or the ledger is another till's; writing "
        + "could charge tabs twice: restore the newest live journal, or this till's ledger"
    case .ledgerMissing(let path):
      "the journal records payments but the processor ledger '\(path)' was missing or empty (or its header torn); "
        + "restore it from a backup, or pass --processor with its path"
    case .ledgerOfAnotherJournal(let path, let movements):
      "the journal is new (or was cut back to nothing) but the processor ledger '\(path)' holds \(movements) "
        + "movements; restore the journal that made them, or, for a new till, pass --processor with a new path"
    case .noFreshKey:
      "no unused payment key found after a thousand tries; the processor ledger belongs to another journal"
    case .closedDay(let day, let path):
      "'\(path)' is the archive of day \(day), closed and read-only; open the live journal"
    case .paymentInFlight(let tab):
      "a payment for tab #\(tab.raw) is in flight; wait for its outcome before changing it or undoing"
    case .unresolved(let key, let attempts):
      "the payment processor did not answer in time (\(attempts) attempt\(attempts == 1 ? "" : "s") under key '\(key)'); "
        + "the payment is unresolved until reconciled: the next command that writes asks the processor"
    case .tornDown: "the till was shut down; start it again"
    case .heldChargeDiffers(let tab, let reference, let charged, let total):
      "the processor already holds a charge of \(money(charged)) for tab #\(tab.raw) (\(reference)) that this journal "
        + "has no record of (it was restored or cut back); the tab now totals \(money(total)), so the charge is not "
        + "adopted and nothing is charged: bring the tab back to \(money(charged)) and settle it (the charge is then adopted), or have "
        + "\(reference) refunded at the processor first; 'kiosk reconcile' lists it"
    case .archiveExists(let path):
      "cannot archive the day as '\(path)': another file has that name; move it away and run the command again"
    case .ledgerLacksKnownEntries(let path, let numbers):
      "the processor ledger '\(path)' lacks \(numbers.count == 1 ? "entry" : "entries") "
        + "\(numbers.map(String.init).joined(separator: ", ")), which the journal holds the processor's answer for "
        + "(damaged, or restored from an older copy); no money moves until 'kiosk repair' writes "
        + "\(numbers.count == 1 ? "it" : "them") back"
    case .heldChargeOfOpenTab(let tab, let reference, let amount):
      "not closing the day: the processor holds charge \(reference) of \(money(amount)) for tab #\(tab.raw), which "
        + "the journal has open (its settle was lost: a restored or damaged journal); put the tab's items back if "
        + "they are gone (the charge is \(money(amount))) and run 'kiosk settle \(tab.raw)', which adopts the charge, "
        + "then close the day"
    case .ledgerLostMovements(let path, let mismatches):
      "not closing the day: the processor ledger '\(path)' lost entries to damage that the journal names "
        + "(\(mismatches) mismatches, listed by 'kiosk reconcile'); run 'kiosk repair', which writes back every "
        + "entry the journal holds the processor's answer for, then close the day"
    }
  }
}
