import Journal
import Tabs

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The options every command takes, wherever they stand on the command line.
struct GlobalOptions: Equatable {
  /// The journal: `--journal`, `$KIOSK_JOURNAL`, or `./kiosk.journal`.
  var journalPath = "kiosk.journal"
  /// The processor's ledger: `--processor`, `$KIOSK_PROCESSOR`, or beside the journal.
  var processorPath: String?
  /// One JSON object per result, error and warning.
  var json = false
  /// How long a writer waits for another process's lock.
  var lockWait = DurableJournal.defaultLockWait
  /// `--help` anywhere: show the command's help instead of running it.
  var help = false
  /// `--all`: `history` and `verify` walk every day's file, not only the
  /// live day's; `board` lists the day's settled tabs too.
  var all = false
  /// `--check`: `sync` says how far behind the till is, and why, without asking the head office.
  var check = false
  /// `--version`: print the kiosk's version and the journal format it writes, and nothing else.
  var version = false

  /// The ledger's path, resolved.
  var ledgerPath: String { processorPath ?? journalPath + ".processor" }

  /// Records between checkpoints (`$KIOSK_CHECKPOINT_EVERY`), when not the default.
  var checkpointInterval: Int?

  /// The till's name in the chain (`$KIOSK_TILL`), for `sync`.
  var till: String?
  /// The head office's libpq connection string (`$KIOSK_HEAD_OFFICE`), for `sync`.
  var headOffice: String?
  /// Seconds a statement to the head office may go unanswered (`$KIOSK_HEAD_OFFICE_DEADLINE`), for `sync`.
  var headOfficeDeadline: String?

  /// The defaults, then the environment.
  init(environment: [String: String] = [:]) {
    if let path = environment["KIOSK_JOURNAL"], !path.isEmpty { journalPath = path }
    if let path = environment["KIOSK_PROCESSOR"], !path.isEmpty { processorPath = path }
    if let name = environment["KIOSK_TILL"], !name.isEmpty { till = name }
    if let conninfo = environment["KIOSK_HEAD_OFFICE"], !conninfo.isEmpty { headOffice = conninfo }
    headOfficeDeadline = environment["KIOSK_HEAD_OFFICE_DEADLINE"]
    if let text = environment["KIOSK_CHECKPOINT_EVERY"], text.allSatisfy({ $0.isASCII && $0.isNumber }),
      let interval = Int(text), interval >= 1
    {
      checkpointInterval = interval
    }
  }

  /// The options, with their argument placeholders, as the usage text lists them.
  static let usage = "[--journal PATH] [--processor PATH] [--json] [--wait SECONDS]"
}

/// A command line split into options and words: a small, general parser.
/// Options may stand anywhere (`kiosk open Ada --json`); `--` ends them, so
/// `kiosk open -- --json` opens a tab for "--json"; `--name=value` and
/// `--name value` are the same; an unknown option is a usage error naming it.
struct ParsedArguments: Equatable {
  var options: GlobalOptions
  var words: [String]

  init(_ arguments: [String], environment: [String: String] = [:]) throws(KioskFailure) {
    options = GlobalOptions(environment: environment)
    if let text = environment["KIOSK_CHECKPOINT_EVERY"], !text.isEmpty, options.checkpointInterval == nil {
      throw .usage("KIOSK_CHECKPOINT_EVERY is a number of records, at least 1, not '\(text)'")
    }
    words = []
    var remaining = arguments[...]
    while let token = remaining.popFirst() {
      if token == "--" {
        words.append(contentsOf: remaining)
        break
      }
      guard token.hasPrefix("-"), token.count > 1, Int(token) == nil else {
        words.append(token)
        continue
      }
      var name = token
      var inlineValue: String?
      if let equals = token.firstIndex(of: "=") {
        name = String(token[..<equals])
        inlineValue = String(token[token.index(after: equals)...])
      }
      func value() throws(KioskFailure) -> String {
        guard let value = inlineValue ?? remaining.popFirst(), !value.isEmpty else {
          throw .usage("'\(name)' needs a value")
        }
        return value
      }
      switch name {
      case "--json", "--help", "-h", "--all", "--version", "--check":
        guard inlineValue == nil else { throw .usage("'\(name)' takes no value") }
        switch name {
        case "--json": options.json = true
        case "--all": options.all = true
        case "--check": options.check = true
        case "--version": options.version = true
        default: options.help = true
        }
      case "--journal": options.journalPath = try value()
      case "--processor": options.processorPath = try value()
      case "--wait":
        let text = try value()
        let decimal = text.allSatisfy { $0.isASCII && ($0.isNumber || $0 == ".") } && text.first?.isNumber == true
        guard decimal, let seconds = Double(text), seconds <= 86_400 else {
          throw .usage("'--wait' takes seconds from 0 to 86400, not '\(text)'")
        }
        options.lockWait = .milliseconds(Int64((seconds * 1_000).rounded()))
      default: throw .usage("unknown option '\(name)'; run 'kiosk help'")
      }
    }
  }
}

/// Free text from a user (a customer's name, an item or ingredient to look up):
/// one line of printable text, trimmed, of sane length. Anything else is a usage
/// error, so no name can break a line of `board` or `history`, or reach a
/// terminal as an escape sequence.
enum FreeText {
  /// `text`, trimmed, or a usage error saying what is wrong with it: the
  /// rules are `CustomerName`'s, the ones the domain itself enforces.
  static func validated(_ text: String, as what: String) throws(KioskFailure) -> String {
    do throws(CustomerName.Refusal) { return try CustomerName.validated(text) } catch {
      throw .usage(error.description(as: what))
    }
  }
}

/// The raw argument vector, refusing bytes that are not UTF-8 instead of
/// replacing them with U+FFFD, as `CommandLine.arguments` would.
func validatedArguments() throws(KioskFailure) -> [String] {
  var arguments: [String] = []
  for index in 1..<Int(CommandLine.argc) {
    guard let pointer = CommandLine.unsafeArgv[index] else { continue }
    guard let argument = String(validatingCString: pointer) else {
      throw .usage("argument \(index) is not valid UTF-8")
    }
    arguments.append(argument)
  }
  return arguments
}
