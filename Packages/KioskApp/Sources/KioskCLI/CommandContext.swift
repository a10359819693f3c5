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
  func view(withLedger: Bool = false) throws -> KioskView {
    if let shell { return shell.view }
    try checkPaths()
    let view = try KioskView.read(journal: options.journalPath, processor: withLedger ? options.ledgerPath : nil)
    if view.unreadTailBytes > 0 {
      warn(
        "the journal ends in \(bytes(view.unreadTailBytes)) of an unfinished write, not read; "
          + "the next command that writes saves and cuts them")
    }
    return view
  }

  /// The journal files `history` and `verify` read: the live day's, or with
  /// `--all` every closed day's archive first.
  func segments() throws -> [KioskSegments.Segment] {
    try checkPaths()
    let live = shell?.journalPath ?? options.journalPath
    guard FileManager.default.fileExists(atPath: live) else { throw JournalError.missing(path: live) }
    return options.all ? KioskSegments.all(of: live) : [KioskSegments.Segment(day: nil, path: live)]
  }

  /// The journal and the ledger are two files: one path for both is a usage error.
  private func checkPaths() throws(KioskFailure) {
    let journal = URL(fileURLWithPath: options.journalPath).standardizedFileURL.resolvingSymlinksInPath().path
    let ledger = URL(fileURLWithPath: options.ledgerPath).standardizedFileURL.resolvingSymlinksInPath().path
    guard journal != ledger else {
      throw .usage(
        "the processor ledger cannot be the journal itself ('\(options.ledgerPath)'); give --processor another path")
    }
  }

  /// The writer: takes the journal's lock (waiting up to `--wait`), recovers,
  /// reconciles open payment intents, and reports what recovery did.
  func writer() throws -> KioskShell {
    if let shell { return shell }
    try checkPaths()
    let journal = try DurableJournal(path: options.journalPath, lockWait: options.lockWait)
    let recovery = journal.recovery
    let processor: LocalProcessor
    do {
      processor = try LocalProcessor(path: options.ledgerPath, lockWait: options.lockWait, fault: processorFault)
    } catch {
      throw KioskFailure(code: .journal, message: "processor ledger: \(error)")
    }
    let ledgerRecovery = processor.recovery
    let shell = try KioskShell(journal: journal, processor: processor)
    if let interval = options.checkpointInterval { shell.checkpointInterval = interval }
    for (what, recovered) in [("the journal", recovery), ("the processor ledger", ledgerRecovery)]
    where recovered.droppedBytes > 0 {
      warn(
        "recovered \(what): dropped a torn tail of \(bytes(recovered.droppedBytes))"
          + (recovered.savedTailPath.map { ", saved in \($0)" } ?? ""))
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

/// `1 byte`, `3 bytes`.
func bytes(_ count: Int) -> String { count == 1 ? "1 byte" : "\(count) bytes" }

/// One line on standard error.
func printError(_ line: String) {
  FileHandle.standardError.write(Data((line + "\n").utf8))
}
