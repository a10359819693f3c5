import Journal
import KioskApp
import Payment

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a running command reaches: the options, a read-only view of the
/// kiosk, or the writer, opened on first use and kept for a shell session.
@MainActor
final class CommandContext {
  /// The command line's options; a shell line's `--all` holds for that line only.
  var options: GlobalOptions
  private var shell: TillShell?
  /// Set by tests of the processor's faults (`$KIOSK_PROCESSOR_FAULT`).
  let processorFault: LocalProcessor.Fault?

  /// What off-actor payments run on (`$KIOSK_PROCESSOR_NETWORK`, `$KIOSK_PAYMENT_DEADLINE`).
  let effects: EffectEnvironment
  /// Where an earlier version looked for the ledger of a journal reached
  /// through a link (beside the link), when that is not where it is now.
  private let ledgerBesideTheLink: String?

  init(options: GlobalOptions, processorFault: LocalProcessor.Fault?, effects: EffectEnvironment = .live) {
    self.effects = effects
    var options = options
    // One identity for the till: the journal is the file its path names, and
    // the ledger, the next day's file and the archives sit beside that file,
    // whichever path (a link, a linked folder, `..`) reached it.
    let given = options.journalPath
    options.journalPath = TillFiles.resolve(given)
    options.processorPath = options.processorPath.map(TillFiles.resolve)
    let besideTheLink = PathNames.standardized(LocalProcessor.defaultPath(besideJournal: given))
    ledgerBesideTheLink =
      options.processorPath == nil && besideTheLink != options.ledgerPath
        && TillFiles.resolve(besideTheLink) != options.ledgerPath ? besideTheLink : nil
    // A ledger beside the journal that is itself a link is reached through it,
    // resolved like the journal: repair then rewrites the file, not the link.
    if options.processorPath == nil {
      let beside = options.ledgerPath
      if TillFiles.resolve(beside) != beside { options.processorPath = TillFiles.resolve(beside) }
    }
    self.options = options
    self.processorFault = processorFault
  }

  /// Refuses to create a new, empty ledger beside the journal's real path
  /// while the till's ledger still sits beside the link it was reached by
  /// (where versions before this one kept it): payments would be abandoned.
  private func refuseLedgerLeftBesideTheLink() throws(KioskFailure) {
    guard let old = ledgerBesideTheLink, FileManager.default.fileExists(atPath: old),
      !FileManager.default.fileExists(atPath: options.ledgerPath)
    else { return }
    throw KioskFailure(
      code: .journal,
      message: "this till's ledger belongs beside its journal's real path, '\(options.ledgerPath)', but it is at "
        + "'\(old)', beside the link; move it there (mv '\(old)' '\(options.ledgerPath)'), or pass --processor '\(old)'"
    )
  }

  /// The state as the reading commands show it: from the open writer when
  /// there is one (a shell session), else read without a lock or a write.
  /// With `listingSettled`, it lists the day's settled tabs too (`board --all`).
  func view(withLedger: Bool = false, at point: ReadPoint? = nil, listingSettled: Bool = false) throws -> KioskView {
    if let shell {
      var view = try shell.view(withLedger: withLedger)
      if listingSettled { view.settledListing = try shell.settledListing() }
      return view
    }
    try checkPaths()
    try refuseUnnameableJournal()
    try refuseMissingLiveJournal(options.journalPath)
    if withLedger { try refuseLedgerLeftBesideTheLink() }
    let view = try KioskView.read(
      journal: options.journalPath, processor: withLedger ? options.ledgerPath : nil, at: point,
      listingSettled: listingSettled)
    if view.unreadTailBytes > 0 {
      warn(
        "the journal ends in \(bytes(view.unreadTailBytes)) of an unfinished write, not read; "
          + "the next command that writes saves and cuts them")
    }
    return view
  }

  /// Refuses a command that needs something a new till cannot hold (a tab, a
  /// command to undo) when there is no till yet, before one is created: it
  /// says `reason`, exits 65, and leaves the folder as it was.
  func refuseWithoutATill(_ reason: String) throws(KioskFailure) {
    guard shell == nil, !FileManager.default.fileExists(atPath: options.journalPath) else { return }
    try refuseUnnameableJournal()
    try refuseMissingLiveJournal(options.journalPath)
    throw .domain("\(reason): there is no till at '\(options.journalPath)' yet (open a tab to start one)")
  }

  /// `refuseWithoutATill` for a command on tab `word`, once `word` is a tab
  /// number: a malformed one is a usage error, till or not.
  func refuseWithoutATill(tab word: String) throws(KioskFailure) {
    _ = try WriteCommands.tabID(word)
    try refuseWithoutATill("no tab \(word)")
  }

  /// Refuses to go on without a journal (`close-day` never starts a new till).
  func requireJournal() throws {
    guard shell != nil || FileManager.default.fileExists(atPath: options.journalPath) else {
      try refuseMissingLiveJournal(options.journalPath)
      throw JournalError.missing(path: options.journalPath)
    }
  }

  /// The live journal, which `history` and `verify` read (with `--all`, after
  /// every closed day's archive). It must exist.
  func livePath() throws -> String {
    try checkPaths()
    let live = shell?.journalPath ?? options.journalPath
    guard FileManager.default.fileExists(atPath: live) else {
      try refuseMissingLiveJournal(live)
      throw JournalError.missing(path: live)
    }
    return live
  }

  /// A missing live journal beside closed days' archives was moved or deleted:
  /// never start a new till there (it would be a second day 1).
  private func refuseMissingLiveJournal(_ live: String) throws(KioskFailure) {
    guard !FileManager.default.fileExists(atPath: live), let newest = KioskSegments.archives(of: live).last else {
      return
    }
    throw KioskFailure(
      code: .journal,
      message: "the live journal '\(live)' is missing, but closed days are archived beside it "
        + "(the last is '\(newest.path)'); restore the live journal")
  }

  /// Refuses, as a writer would, a journal path that cannot name one (its
  /// folder not there, a loop of links): no reader shows a new till there,
  /// and no command advises opening a tab where none can be opened.
  private func refuseUnnameableJournal() throws(KioskFailure) {
    do { _ = try TillFiles.journalHasBytes(at: options.journalPath) } catch { throw KioskFailure(error) }
  }

  /// The journal and the ledger are two files: one path for both is a usage
  /// error. Both were resolved when the context was made (`init`).
  private func checkPaths() throws(KioskFailure) {
    guard options.journalPath != options.ledgerPath else {
      throw .usage(
        "the processor ledger cannot be the journal itself ('\(options.ledgerPath)'); give --processor another path")
    }
  }

  /// The writer: takes the journal's lock (waiting up to `--wait`), recovers,
  /// reconciles open payment intents, and reports what recovery did.
  func writer() async throws -> TillShell {
    if let shell { return shell }
    try checkPaths()
    try refuseMissingLiveJournal(options.journalPath)
    try refuseLedgerLeftBesideTheLink()
    // The ledger is read from where the live day began: a day's writer reads the day's movements.
    let shell = try await TillShell.open(
      journal: options.journalPath, ledger: options.ledgerPath, lockWait: options.lockWait, fault: processorFault,
      effects: effects, checkpointEvery: options.checkpointInterval ?? TillShell.defaultCheckpointInterval)
    let recovery = shell.journalRecovery
    let ledgerRecovery = shell.ledgerRecovery
    for (what, recovered) in [("the journal", recovery), ("the processor ledger", ledgerRecovery)]
    where recovered.droppedBytes > 0 {
      warn(
        "recovered \(what): dropped a torn tail of \(bytes(recovered.droppedBytes))"
          + (recovered.savedTailPath.map { ", saved in \($0)" } ?? ""))
    }
    if let retired = shell.ledgerCaughtUp {
      warn(
        "the processor ledger '\(options.ledgerPath)' is behind the journal (restored from an older copy, or its tail "
          + "lost): "
          + (retired.count == 1 ? "entry \(retired.lowerBound)" : "entries \(retired.lowerBound)–\(retired.upperBound)")
          + ", which the journal names, \(retired.count == 1 ? "is" : "are") retired and never given again; "
          + "'kiosk repair' writes back the ones the journal holds")
    }
    if let day = shell.finishedInterruptedClose {
      warn(
        "finished closing day \(day), which a crash had cut short; its archive is "
          + "\(KioskSegments.archivePath(of: shell.journalPath, day: day))")
    }
    for item in shell.reconciled {
      let output = ReconciliationOutput(item)
      if options.json { printText(jsonLine(output)) } else { printError("kiosk: \(output.line)") }
    }
    self.shell = shell
    return shell
  }

  /// Lets the journal's lock go: the writer is closed, and opened again on next use.
  func releaseWriter() { shell = nil }

  /// Runs a command that may move money and warns of every movement of the
  /// processor's it adopted instead (`TillShell.adoptions`): the person at the
  /// till is told that a charge or refund came from a history the journal lost.
  func sayingAdoptions<Result>(_ command: () async throws -> Result) async throws -> Result {
    let before = try await writer().adoptions.count
    let result = try await command()
    for adoption in try await writer().adoptions.dropFirst(before) { warn(adoption.description) }
    return result
  }

  /// The point every read of a reading command is taken at (`ReadPoint`):
  /// nil inside a shell session, whose writer is this process.
  func readPoint() -> ReadPoint? {
    shell == nil ? ReadPoint.take(journal: options.journalPath, ledger: options.ledgerPath) : nil
  }

  /// The payment audit at `point`: the ledger and every day's money records as they stood then.
  func paymentAudit(_ view: KioskView, at point: ReadPoint?) throws -> PaymentAudit {
    let history = try KioskJournalReader.paymentHistory(of: options.journalPath, liveEnd: point?.journalEnd)
    let setAside = KioskSegments.setAsideSalts(of: options.journalPath, ledger: view.ledger)
    guard let point else {
      return PaymentAudit(
        ledger: view.ledger, records: history.records, lostNumbers: view.ledgerLost, setAsideSalts: setAside,
        closedByCheckpoint: history.closedByCheckpoint)
    }
    let settled = try KioskView.readLedger(options.ledgerPath, endingAt: point.ledgerBefore).count
    return PaymentAudit(
      ledger: view.ledger, settledBefore: settled, records: history.records, lostNumbers: view.ledgerLost,
      setAsideSalts: setAside, closedByCheckpoint: history.closedByCheckpoint)
  }

  /// A warning on stderr: a line, or `{"warning": …}` with `--json`.
  func warn(_ text: String) {
    if options.json { printText(jsonLine(WarningOutput(warning: text))) } else { printError("kiosk: warning: \(text)") }
  }
}

/// `1 byte`, `3 bytes`.
func bytes(_ count: Int) -> String { count == 1 ? "1 byte" : "\(count) bytes" }

/// One line of text on standard error, its control and format characters
/// escaped (`OneLine.escaped`): a message that quotes what the user typed
/// stays one line. A JSON line goes through `printText`: JSON escapes what it must.
func printError(_ line: String) {
  writeAll((OneLine.escaped(line) + "\n").utf8, to: STDERR_FILENO)
}

/// Text as written on standard error: the kiosk's own, lines and all (the
/// usage), or a JSON line.
func printText(_ text: String) {
  writeAll((text + "\n").utf8, to: STDERR_FILENO)
}
