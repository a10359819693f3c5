import Journal
import KioskApp
import Payment
import Stock
import Tabs

/// The kiosk's exit statuses (sysexits.h values, so scripts can tell them apart).
enum ExitCode: Int32 {
  /// The command ran and was committed.
  case success = 0
  /// The command line is wrong: unknown command, missing or malformed argument.
  case usage = 64
  /// The world refused the command (unknown tab or item, settled tab, shortage,
  /// declined payment); nothing changed.
  case domain = 65
  /// The journal cannot be used: locked, corrupt, unreadable, or a failed write
  /// or sync; nothing was committed.
  case journal = 74
  /// The payment processor did not answer: the payment's intent is journaled
  /// and is reconciled on the next run (sysexits' EX_TEMPFAIL).
  case processorUnavailable = 75
}

/// A failure with the line to print and the status to exit with.
struct KioskFailure: Error {
  var code: ExitCode
  var message: String

  init(code: ExitCode, message: String) {
    self.code = code
    self.message = message
  }

  /// The failure as `--json` prints it: `{"error":…,"exitCode":…}`.
  var jsonLine: String {
    Output(lines: [], json: ["error": .string(message), "exitCode": .number(Int(code.rawValue))]).jsonLine
  }

  static func usage(_ message: String) -> KioskFailure { KioskFailure(code: .usage, message: message) }
  static func domain(_ message: String) -> KioskFailure { KioskFailure(code: .domain, message: message) }

  /// Classifies anything the shell or the journal threw.
  init(_ error: any Error) {
    switch error {
    case let failure as KioskFailure: self = failure
    case let error as JournalError: self.init(code: .journal, message: error.description)
    case let error as ReplayError: self.init(code: .journal, message: error.description)
    case let error as KioskError:
      switch error {
      case .unknownTab(let id): self.init(code: .domain, message: "no tab #\(id.raw)")
      case .alreadySettled(let id): self.init(code: .domain, message: "tab #\(id.raw) is already settled")
      case .unknownItem: self.init(code: .domain, message: "that item cannot be made now")
      case .emptyTab(let id):
        self.init(code: .domain, message: "tab #\(id.raw) has no items; there is nothing to charge")
      case .notOnTab(let id): self.init(code: .domain, message: "that item is not on tab #\(id.raw)")
      }
    case StockState.Shortage.insufficient(let ingredient):
      self.init(code: .domain, message: "not enough \(ingredient.rawValue) in stock")
    case PaymentError.declined(let reason): self.init(code: .domain, message: "payment declined: \(reason)")
    case PaymentError.timedOut: self.init(code: .processorUnavailable, message: PaymentError.timedOut.description)
    case let error as KioskShellError: self.init(code: .domain, message: error.description)
    case RestockError.nonPositiveCount(let count):
      self.init(code: .usage, message: "restock count must be at least 1, not \(count)")
    default: self.init(code: .journal, message: "\(error)")
    }
  }
}
