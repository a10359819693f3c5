import Journal
import KioskApp
import KioskCommands

extension ReadCommands {
  /// `verify [--all]`: replays the live day's file (or every day's) twice from
  /// its first record, checks every checkpoint against the replay, checks that
  /// the days chain, compares the end with the state a writer opens with (from
  /// the last checkpoint), then audits payments against every day.
  static func verify(_ context: CommandContext) throws -> VerifyOutput {
    // Every read below is of the files as they stood at this one point.
    let point = context.readPoint()
    let view = try context.view(withLedger: true, at: point)
    let live = try context.livePath()
    let segments = context.options.all ? KioskSegments.all(of: live) : [KioskSegments.Segment(day: nil, path: live)]
    let progress = ProgressLine(what: "verify", enabled: !context.options.json)
    defer { progress.finish() }
    // Only the day before is kept (for the chain check): memory stays that of one day.
    var previous: KioskVerifier.Report?
    var records = 0
    var checkpoints = 0
    var setAside: [Int] = []
    var lost: [String] = []
    var stale: [String] = []
    var liveReport: KioskVerifier.Report?
    for (index, segment) in segments.enumerated() {
      let expected = index + 1
      if context.options.all, let day = segment.day, day != expected {
        throw KioskDaysError.missingArchive(
          day: expected, path: KioskSegments.archivePath(of: context.options.journalPath, day: expected))
      }
      if segment.setAside {
        setAside.append(expected)
        previous = nil  // the day after a set-aside one cannot be chained to it
        continue
      }
      let end = segment.day == nil ? point?.journalEnd : nil
      let (report, again) = try KioskJournalReader.readingArchive(segment) {
        (
          try KioskVerifier.replay(path: segment.path, endingAt: end, progress: progress.update),
          try KioskVerifier.replay(path: segment.path, endingAt: end)
        )
      }
      lost += report.lost.map { "'\(segment.path)' record \($0)" }
      let settledTabs = SettledTabsFile.path(besideJournal: segment.path)
      switch report.settledTabsFile {
      case .agrees, .notVouchedFor: break
      case .unreadable: stale.append(settledTabs)
      case .differs:
        throw KioskFailure(
          code: .journal,
          message: "the settled-tabs file '\(settledTabs)' holds other tabs than the records of '\(segment.path)' "
            + "before its last checkpoint; remove it, and "
            + (segment.day == nil
              ? "the next writer rebuilds it from the journal"
              : "readers list the closed day's tabs from its archive (no writer rebuilds an archive's file)"))
      }
      guard report.state.canonicalJSONWrittenByHand() == again.state.canonicalJSONWrittenByHand() else {
        throw KioskFailure(code: .journal, message: "two replays of '\(segment.path)' gave different states")
      }
      if context.options.all {
        if report.day != expected {
          if segment.day == nil, report.day > expected { throw KioskDaysError.changedWhileReading(path: segment.path) }
          throw KioskDaysError.wrongDay(path: segment.path, holds: report.day, expected: expected)
        }
        if segment.day != nil, report.closedDay != report.day || report.unreadTailBytes > 0 {
          throw KioskDaysError.damagedArchive(path: segment.path, unreadBytes: report.unreadTailBytes)
        }
      }
      if let previous { try KioskVerifier.checkChain(from: previous, to: report) }
      records += report.records
      checkpoints += report.checkpoints
      previous = report
      liveReport = report
    }
    guard let live = liveReport else { throw JournalError.missing(path: context.options.journalPath) }
    guard live.state.digest == view.snapshot.digest else {
      throw KioskFailure(
        code: .journal,
        message: "the replayed state \(live.state.digest) differs from the open state \(view.snapshot.digest)")
    }
    let audit = try context.paymentAudit(view, at: point)
    guard audit.agrees else {
      throw OutputFailure(
        output: reconcileOutput(audit),
        failure: .domain("the processor and the journal disagree: \(audit.mismatches.count) mismatches"))
    }
    return VerifyOutput(
      records: records, files: segments.count - setAside.count, checkpoints: checkpoints, digest: live.state.digest,
      identical: true,
      charges: audit.charges, refunds: audit.refunds, pending: audit.pending, setAsideDays: setAside, lost: lost,
      staleSettledTabsFiles: stale)
  }

  struct ReconcileOutput: CommandOutput {
    var command = "reconcile"
    var charges: Int
    var chargedTotal: String
    var refunds: Int
    var refundedTotal: String
    var settledTotal: String
    var undoneTotal: String
    var pendingMovements: Int
    var pendingTotal: String
    var pending: [String]
    var mismatches: [String]
    /// The processor's movements of set-aside archives, left out (`kiosk set-aside`).
    var setAsideMovements: Int
    var summary: String {
      "processor: \(charges) charges (\(chargedTotal)), \(refunds) refunds (\(refundedTotal))"
        + (pendingMovements > 0 ? ", and \(pendingMovements) movements under open intents (\(pendingTotal))" : "")
        + "; journal: settled \(settledTotal), refunded \(undoneTotal)"
    }
    var verdict: String {
      if !mismatches.isEmpty { return "the processor and the journal disagree: \(mismatches.count) mismatches" }
      if !pending.isEmpty {
        return "consistent so far: every other charge and refund maps to exactly one journaled command; "
          + "\(pending.count) open intents are reconciled by the next command that writes"
      }
      return "reconciled: every charge and refund maps to exactly one journaled command"
    }
    var text: [String] {
      [summary] + pending.map { "pending: \($0)" } + mismatches.map { "mismatch: \($0)" }
        + (setAsideMovements > 0
          ? ["set aside: \(setAsideMovements) movements of days set aside as damaged are not compared"] : [])
        + [verdict]
    }
  }
}
