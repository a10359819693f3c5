import DurableStore
import HeadOffice
import Journal
import KioskApp
import KioskCommands
import Payment
import Stock
import Tabs

/// The kiosk's exit statuses (sysexits.h values, so scripts can tell them apart).
enum ExitCode: Int32, CaseIterable {
  /// The command ran and was committed.
  case success = 0
  /// The command line is wrong: unknown command or option, missing or malformed argument.
  case usage = 64
  /// The kiosk refused the command (unknown tab or item, settled tab, shortage,
  /// declined payment, a payment mismatch); nothing changed.
  case domain = 65
  /// The head office did not answer, or refused (`sync`): nothing was half
  /// shipped, and the till goes on; run `sync` again later.
  case headOfficeUnavailable = 69
  /// A bug: an error this program does not know how to classify.
  case software = 70
  /// The journal cannot be used: locked, missing, corrupt, unreadable, or a
  /// failed write or sync; nothing was committed.
  case journal = 74
  /// The payment processor did not answer: the payment's intent is journaled
  /// and is reconciled on the next run.
  case processorUnavailable = 75
}

/// A failure with the line to print and the status to exit with.
struct KioskFailure: Error, Equatable {
  var code: ExitCode
  var message: String

  static func usage(_ message: String) -> KioskFailure { KioskFailure(code: .usage, message: message) }
  static func domain(_ message: String) -> KioskFailure { KioskFailure(code: .domain, message: message) }

  init(code: ExitCode, message: String) {
    self.code = code
    self.message = message
  }

  /// Classifies anything the till, the domain or the journal threw. Every
  /// known error type is mapped case by case; anything else is a bug (70),
  /// never filed under another status.
  init(_ error: any Error) {
    switch error {
    case let failure as KioskFailure: self = failure
    case let failure as OutputFailure: self = failure.failure
    case let error as JournalError: self.init(code: .journal, message: error.description)
    case let error as ReplayError: self.init(code: .journal, message: error.description)
    case let error as KioskViewError: self.init(code: .journal, message: error.description)
    case let error as KioskError: self.init(error)
    case let error as PaymentError: self.init(KioskError.payment(error))
    case let error as RestockError: self.init(error)
    case let error as TillError:
      switch error {
      case .invalidTillName: self.init(code: .usage, message: error.description)
      case .paymentInFlight, .heldChargeDiffers, .ledgerLostMovements, .heldChargeOfOpenTab, .amountPastLimit,
        .amountInFractionsOfACent:
        self.init(code: .domain, message: error.description)
      case .unresolved: self.init(code: .processorUnavailable, message: error.description)
      case .tornDown: self.init(code: .software, message: error.description)
      case .noFreshKey, .ledgerMissing, .ledgerOfAnotherJournal, .closedDay, .archiveExists,
        .ledgerLacksKnownEntries, .ledgerUnreadable, .dayAlreadyArchived,
        .ledgerNotTheDays, .ledgerMovedOn:
        self.init(code: .journal, message: error.description)
      }
    case let error as DurableStoreError:
      switch error {
      case .intentsOpen: self.init(code: .domain, message: error.description)
      case .notSendable: self.init(code: .software, message: error.description)
      case .journal, .replay, .unsupportedVersion, .stopped, .failedEarlier, .archiveExists, .archiveFailed, .archive,
        .nameWithoutRoom:
        self.init(code: .journal, message: error.description)
      }
    case let refusal as TillRefusal: self.init(code: .domain, message: refusal.description)
    case let error as KioskVerifier.Failure: self.init(code: .journal, message: error.description)
    case let error as KioskDaysError: self.init(code: .journal, message: error.description)
    case let stopped as HeadOfficeSync.Stopped: self.init(stopped)
    default: self.init(code: .software, message: "internal error, please report it: \(error)")
    }
  }

  /// A sync that stopped: the head office's fault (69; a conflict is a refusal, 65; a connection string
  /// that is wrong, 64) or a damaged archive (74),
  /// with what was shipped first and what is still behind.
  private init(_ stopped: HeadOfficeSync.Stopped) {
    let code: ExitCode =
      switch stopped.headOffice {
      case .conflict, .nameTaken: .domain
      case .misconfigured: .usage
      case .some: .headOfficeUnavailable
      case nil: .journal
      }
    let shipped = stopped.shipped.isEmpty ? "" : "shipped \(SyncCommand.days(stopped.shipped.map(\.day))), then "
    // Only a head office that did not answer is worth another try as things stand.
    let again: String =
      switch stopped.headOffice {
      case .unreachable, .refused: " (the till goes on; run 'kiosk sync' again)"
      default: ""
      }
    let behind =
      stopped.behind.isEmpty ? "" : "; \(SyncCommand.days(stopped.behind)) not at the head office yet\(again)"
    self.init(code: code, message: shipped + stopped.reason + behind)
  }

  private init(_ error: KioskError) {
    switch error {
    case .unknownTab(let id): self.init(code: .domain, message: "no tab #\(id.raw)")
    case .alreadySettled(let id): self.init(code: .domain, message: "tab #\(id.raw) is already settled")
    case .notOnMenu(let id): self.init(code: .domain, message: "no item #\(id.raw) on the menu")
    case .cannotMake(let id, let short):
      self.init(code: .domain, message: "item #\(id.raw) cannot be made now: not enough \(short.rawValue)")
    case .shortage(let ingredient): self.init(code: .domain, message: "not enough \(ingredient.rawValue) in stock")
    case .tabFull(let id): self.init(code: .domain, message: "tab #\(id.raw) holds \(Tab.maxLines) items already")
    case .emptyTab(let id): self.init(code: .domain, message: "tab #\(id.raw) has no items; there is nothing to charge")
    case .notOnTab(let id): self.init(code: .domain, message: "that item is not on tab #\(id.raw)")
    case .payment(.declined(let reason)): self.init(code: .domain, message: "payment declined: \(reason)")
    case .payment(.timedOut): self.init(code: .processorUnavailable, message: PaymentError.timedOut.description)
    case .invalidName(let refusal): self.init(code: .usage, message: refusal.description(as: "a customer name"))
    }
  }

  private init(_ error: RestockError) {
    switch error {
    case .nonPositiveCount(let count):
      self.init(code: .usage, message: "a restock count is at least 1, not \(count)")
    case .overLimit(let ingredient, let limit):
      self.init(code: .domain, message: "that delivery would take \(ingredient.rawValue) over \(limit) units")
    }
  }
}

/// A failure that still has a result to show (`reconcile` listing its
/// mismatches): the result is printed on stdout, then the error, then the status.
struct OutputFailure: Error {
  var output: any CommandOutput
  var failure: KioskFailure
}
