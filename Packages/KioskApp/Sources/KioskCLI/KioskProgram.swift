import Foundation
import Journal
import KioskApp
import Payment

/// The `kiosk` program: global options, then one command against the journal.
@MainActor
struct KioskProgram {
  var journalPath: String
  var json = false
  /// The processor's ledger: `--processor`, `$KIOSK_PROCESSOR`, or beside the journal.
  var processorPath: String?
  /// A failure the processor acts out (`$KIOSK_PROCESSOR_FAULT`, for tests).
  var processorFault: LocalProcessor.Fault?
  /// How long a command waits for another process to release the journal.
  var lockWait = DurableJournal.defaultLockWait
  var words: [String] = []

  /// Parses `--journal PATH`, `--json` and the command words.
  init(arguments: [String], environment: [String: String]) throws(KioskFailure) {
    journalPath = environment["KIOSK_JOURNAL"].flatMap { $0.isEmpty ? nil : $0 } ?? "kiosk.journal"
    processorPath = environment["KIOSK_PROCESSOR"].flatMap { $0.isEmpty ? nil : $0 }
    if let fault = environment["KIOSK_PROCESSOR_FAULT"], !fault.isEmpty {
      guard let parsed = LocalProcessor.Fault(rawValue: fault) else {
        let known = LocalProcessor.Fault.allCases.map(\.rawValue).joined(separator: ", ")
        throw .usage("KIOSK_PROCESSOR_FAULT must be one of \(known), not '\(fault)'")
      }
      processorFault = parsed
    }
    var remaining = arguments[...]
    while let argument = remaining.first, argument.hasPrefix("--") {
      remaining.removeFirst()
      switch argument {
      case "--json": json = true
      case "--journal":
        guard let path = remaining.popFirst(), !path.isEmpty else { throw .usage("'--journal' needs a path") }
        journalPath = path
      case "--processor":
        guard let path = remaining.popFirst(), !path.isEmpty else { throw .usage("'--processor' needs a path") }
        processorPath = path
      case "--wait":
        guard let text = remaining.popFirst(), let seconds = Double(text), seconds >= 0, seconds <= 86_400 else {
          throw .usage("'--wait' needs a number of seconds from 0 to 86400")
        }
        lockWait = .milliseconds(Int64(seconds * 1_000))
      case "--help": words = ["help"]
      default: throw .usage("unknown option '\(argument)'; run 'kiosk help'")
      }
    }
    if words.isEmpty { words = Array(remaining) }
    if words.isEmpty { words = ["help"] }
  }

  /// Runs the command; returns the exit status.
  func run() -> ExitCode {
    do {
      let command = try KioskCommand(words: words)
      switch command {
      case .help:
        print(
          json
            ? Output(lines: [], json: ["command": .string("help"), "usage": .string(KioskCommand.usage)]).jsonLine
            : KioskCommand.usage)
        return .success
      case .repair: return try repair()
      case .demo: return try Demo(json: json).run()
      case .shell: return try shellLoop(try openKiosk())
      default:
        let output = try CommandRunner(shell: try openKiosk()).run(command)
        print(json ? output.jsonLine : output.lines.joined(separator: "\n"))
        return .success
      }
    } catch {
      return report(KioskFailure(error))
    }
  }

  /// Recovers the kiosk from the journal (creating it with the default menu),
  /// with the processor's ledger, and reports what reconciliation resolved.
  func openKiosk() throws -> KioskShell {
    let journal = try DurableJournal(path: journalPath, lockWait: lockWait)
    let processor = try LocalProcessor(
      path: processorPath ?? LocalProcessor.defaultPath(besideJournal: journalPath), lockWait: lockWait,
      fault: processorFault)
    let shell = try KioskShell(journal: journal, processor: processor)
    if shell.droppedBytes > 0 {
      warn("recovered the journal: dropped a torn tail of \(shell.droppedBytes) bytes")
    }
    for item in shell.reconciled { warn(json ? item.jsonLine : item.line) }
    return shell
  }

  private func repair() throws -> ExitCode {
    let report = try DurableJournal.repair(path: journalPath, lockWait: lockWait)
    if let backup = report.backupPath {
      print(
        "repaired: kept \(report.keptRecords) records, cut \(report.droppedBytes) bytes; the original is at \(backup)")
    } else {
      print("nothing to repair: \(report.keptRecords) records, all valid")
    }
    return .success
  }

  /// Reads commands from standard input and prints one result line each;
  /// a refused command prints `error: …` as its line and the loop goes on.
  private func shellLoop(_ shell: KioskShell) throws -> ExitCode {
    let runner = CommandRunner(shell: shell)
    while let line = readLine() {
      let words = line.split(separator: " ").map(String.init)
      guard !words.isEmpty else { continue }
      do {
        let command = try KioskCommand(words: words)
        if [.demo, .shell, .repair, .help].contains(command) {
          throw KioskFailure.usage("'\(words[0])' is not available in the shell")
        }
        let output = try runner.run(command)
        print(json ? output.jsonLine : output.lines.joined(separator: " | "))
      } catch {
        let failure = KioskFailure(error)
        if failure.code == .journal { return report(failure) }
        print(json ? failure.jsonLine : "error: \(failure.message)")
      }
      fflush(nil)
    }
    return .success
  }

  private func report(_ failure: KioskFailure) -> ExitCode {
    warn(json ? failure.jsonLine : "kiosk: \(failure.message)")
    return failure.code
  }
}

/// One line on standard error.
func warn(_ line: String) {
  FileHandle.standardError.write(Data((line + "\n").utf8))
}

extension String {
  func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: "0", count: width - count) + self
  }
}
