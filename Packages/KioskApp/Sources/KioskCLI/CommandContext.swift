import Foundation
import Journal
import KioskApp
import Payment

/// What a running command reaches: the options, a read-only view of the
/// kiosk, or the writer, opened on first use and kept for a shell session.
@MainActor
final class CommandContext {
  let options: GlobalOptions
  private var shell: KioskShell?
  /// Set by tests of the processor's faults (`$KIOSK_PROCESSOR_FAULT`).
  let processorFault: LocalProcessor.Fault?

  init(options: GlobalOptions, processorFault: LocalProcessor.Fault?) {
    self.options = options
    self.processorFault = processorFault
  }

  /// The state as the reading commands show it: from the open writer when
  /// there is one (a shell session), else read without a lock or a write.
  func view() throws -> KioskView {
    if let shell { return shell.view }
    let view = try KioskView.read(journal: options.journalPath, processor: options.ledgerPath)
    if view.unreadTailBytes > 0 {
      warn(
        "the journal ends in \(view.unreadTailBytes) bytes of an unfinished record, not read; "
          + "the next command that writes saves and cuts them")
    }
    return view
  }

  /// The writer: takes the journal's lock (waiting up to `--wait`), recovers,
  /// reconciles open payment intents, and reports what recovery did.
  func writer() throws -> KioskShell {
    if let shell { return shell }
    let journal = try DurableJournal(path: options.journalPath, lockWait: options.lockWait)
    let recovery = journal.recovery
    let processor = try LocalProcessor(path: options.ledgerPath, lockWait: options.lockWait, fault: processorFault)
    let shell = try KioskShell(journal: journal, processor: processor)
    if recovery.droppedBytes > 0 {
      warn(
        "recovered the journal: dropped a torn tail of \(recovery.droppedBytes) bytes"
          + (recovery.savedTailPath.map { ", saved in \($0)" } ?? ""))
    }
    for item in shell.reconciled {
      let output = ReconciliationOutput(item)
      printError(options.json ? jsonLine(output) : "kiosk: \(output.line)")
    }
    self.shell = shell
    return shell
  }

  /// A warning on stderr: a line, or `{"warning": …}` with `--json`.
  func warn(_ text: String) {
    printError(options.json ? jsonLine(WarningOutput(warning: text)) : "kiosk: warning: \(text)")
  }
}

/// One line on standard error.
func printError(_ line: String) {
  FileHandle.standardError.write(Data((line + "\n").utf8))
}
