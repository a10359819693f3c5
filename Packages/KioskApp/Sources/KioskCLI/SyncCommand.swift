import HeadOffice
import KioskApp

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `kiosk sync`: ships the till's closed days to the head office, each exactly
/// once, oldest first (docs/head-office.md). Reads the archives only: it takes
/// no lock and never blocks a sale.
enum SyncCommand {
  struct Output: CommandOutput {
    struct Day: Encodable {
      var day: Int
      /// `stored` or `alreadyHeld`.
      var outcome: String
      /// Records stored (0 when the head office already held the day).
      var records: Int
    }
    var command = "sync"
    var till: String
    var days: [Day]
    var closedDays: Int
    var setAside: [Int]
    /// Closed days the head office still lacks: empty unless the sync stopped.
    var behind: [Int] = []
    /// Whether the sync stopped before it was done (the error is on stderr).
    var stopped = false
    var text: [String] {
      let lines = days.map { day in
        day.outcome == "stored"
          ? "day \(day.day): shipped, \(day.records) records" : "day \(day.day): the head office already held it"
      }
      let aside = setAside.isEmpty ? "" : "; \(SyncCommand.days(setAside)) set aside as damaged, not shipped"
      guard behind.isEmpty, !stopped else {
        let days = behind.isEmpty ? "" : " (\(SyncCommand.days(behind)))"
        return lines + ["till '\(till)': \(behind.count) behind as far as it knows\(days)\(aside)"]
      }
      let held = closedDays - setAside.count
      return lines + [
        "till '\(till)': the head office holds all \(held) closed day\(held == 1 ? "" : "s") it can; 0 behind\(aside)"
      ]
    }
  }

  /// `sync`, or with `--check` how far behind the till is.
  @MainActor static func run(_ context: CommandContext) async throws -> any CommandOutput {
    if context.options.check { return try check(context.options) }
    return try await ship(context)
  }

  @MainActor private static func ship(_ context: CommandContext) async throws -> Output {
    let options = context.options
    try requireTill(at: options.journalPath)
    let kept = try HeadOfficeSync.keptName(journal: options.journalPath)
    guard let till = options.till ?? kept else {
      throw KioskFailure.usage(
        "sync needs the till's name in $KIOSK_TILL (1 to 64 of A-Z a-z 0-9 . _ -); the first sync keeps it")
    }
    guard HeadOfficeSync.isTillName(till) else {
      // Quoted and escaped: the name may hold anything, a newline or an escape sequence included.
      throw KioskFailure.usage("KIOSK_TILL must be 1 to 64 of A-Z a-z 0-9 . _ -, not \(till.debugDescription)")
    }
    if let kept, kept != till { throw TillNameCommand.notThisTill(kept: kept, asked: till) }
    var world = try options.headOfficeWorld(
      missing:
        "sync needs the head office's connection string in $KIOSK_HEAD_OFFICE (libpq's: 'host=HOST dbname=NAME user=USER')"
    )
    // Noted before and after, for `sync --check`; a note that cannot be written only warns.
    let attempt = HeadOfficeSync.Attempt(till: till)
    func note(_ attempt: HeadOfficeSync.Attempt) {
      do { try attempt.note(journal: options.journalPath) } catch { context.warn("\(error)") }
    }
    note(attempt)
    if kept == nil {
      // Named once, by its first sync: the name is in the journal before a day is shipped under it.
      // The journal's lock is held for that one record, never while the head office is asked.
      do {
        try await TillNameCommand.keep(till, context: context)
      } catch {
        note(attempt.ended(.stopped, shipped: [], reason: KioskFailure(error).message))
        throw error
      }
    }
    let summary: HeadOfficeSync.Summary
    do {
      summary = try HeadOfficeSync.run(journal: options.journalPath, till: till, world: &world)
    } catch {
      note(attempt.ended(.stopped, shipped: stored(error.shipped), reason: KioskFailure(error).message))
      // What went before the stop is shown as a finished sync shows it, with the days still behind.
      throw OutputFailure(
        output: Output(
          till: till, days: outputDays(error.shipped), closedDays: error.closedDays.count, setAside: error.setAside,
          behind: error.behind, stopped: true),
        failure: KioskFailure(error))
    }
    note(attempt.ended(.done, shipped: stored(summary.shipped)))
    for warning in summary.warnings { context.warn(warning) }
    return Output(
      till: till, days: outputDays(summary.shipped), closedDays: summary.closedDays.count, setAside: summary.setAside)
  }

  /// `sync --check`: how far behind the head office the till is as far as it
  /// knows (its notes of what the head office acknowledged), and how the last
  /// sync went. Asks nobody: it answers at once, offline too.
  struct CheckOutput: CommandOutput {
    var command = "sync --check"
    var till: String
    var closedDays: Int
    var setAside: [Int]
    /// Closed days the head office is not known to hold.
    var behind: [Int]
    /// `none`, `running`, `vanished` (its process is gone, its end unsaid), `done` or `stopped`.
    var last: String
    /// The last sync, when one has run.
    var attempt: HeadOfficeSync.Attempt?
    var text: [String] {
      let aside = setAside.isEmpty ? "" : "; \(SyncCommand.days(setAside)) set aside as damaged, not shipped"
      let standing =
        behind.isEmpty
        ? "till '\(till)': 0 behind as far as it knows (\(closedDays - setAside.count) closed "
          + "day\(closedDays - setAside.count == 1 ? "" : "s") at the head office)\(aside)"
        : "till '\(till)': \(behind.count) behind as far as it knows (\(SyncCommand.days(behind)))\(aside)"
      guard let attempt else { return [standing, "no sync has run from this journal"] }
      let who = attempt.till == till ? "" : " (as till '\(attempt.till)')"
      let shipped = attempt.shipped.isEmpty ? "shipped no new day" : "shipped \(SyncCommand.days(attempt.shipped))"
      let ended = attempt.ended ?? "?"
      switch last {
      case "running": return [standing, "a sync\(who) started \(attempt.started) is running (pid \(attempt.pid))"]
      case "vanished":
        return [
          standing,
          "the last sync\(who), started \(attempt.started), ended without a word: its process (\(attempt.pid)) "
            + "is gone (killed?); run 'kiosk sync'",
        ]
      case "done": return [standing, "the last sync\(who), started \(attempt.started), ended \(ended): \(shipped)"]
      default:
        return [
          standing,
          "the last sync\(who), started \(attempt.started), stopped \(ended) (\(shipped)): "
            + (attempt.reason ?? "no reason noted"),
        ]
      }
    }
  }

  private static func check(_ options: GlobalOptions) throws -> CheckOutput {
    try requireTill(at: options.journalPath)
    let attempt = HeadOfficeSync.Attempt.last(journal: options.journalPath)
    guard let till = try options.till ?? HeadOfficeSync.keptName(journal: options.journalPath) ?? attempt?.till else {
      throw KioskFailure.usage("sync --check needs the till's name in $KIOSK_TILL (no sync has run to name it)")
    }
    guard HeadOfficeSync.isTillName(till) else {
      throw KioskFailure.usage("KIOSK_TILL must be 1 to 64 of A-Z a-z 0-9 . _ -, not \(till.debugDescription)")
    }
    let standing = HeadOfficeSync.standing(journal: options.journalPath, till: till)
    let last: String
    switch attempt?.outcome {
    case nil: last = "none"
    case .running?: last = attempt?.processIsAlive == true ? "running" : "vanished"
    case .done?: last = "done"
    case .stopped?: last = "stopped"
    }
    return CheckOutput(
      till: till, closedDays: standing.closedDays.count, setAside: standing.setAside, behind: standing.behind,
      last: last, attempt: attempt)
  }

  /// Refuses a path where no till is: neither a live journal nor an archive.
  private static func requireTill(at journal: String) throws(KioskFailure) {
    guard FileManager.default.fileExists(atPath: journal) || !KioskSegments.archives(of: journal).isEmpty else {
      throw KioskFailure(code: .journal, message: "there is no till at '\(journal)'")
    }
  }

  /// The days the head office stored (not those it already held).
  private static func stored(_ shipped: [HeadOfficeSync.Shipped]) -> [Int] {
    shipped.compactMap { if case .stored = $0.shipment { $0.day } else { nil } }
  }

  /// Each day shipped, as printed.
  private static func outputDays(_ shipped: [HeadOfficeSync.Shipped]) -> [Output.Day] {
    shipped.map { shipped in
      switch shipped.shipment {
      case .stored(let records): Output.Day(day: shipped.day, outcome: "stored", records: records)
      case .alreadyHeld: Output.Day(day: shipped.day, outcome: "alreadyHeld", records: 0)
      }
    }
  }

  /// `day 3`, `days 3 and 4`, `days 3–7`: the numbers, ascending, as one phrase.
  static func days(_ numbers: [Int]) -> String {
    let sorted = numbers.sorted()
    guard let first = sorted.first, let last = sorted.last else { return "no days" }
    if sorted.count == 1 { return "day \(first)" }
    if sorted.count == 2 { return "days \(first) and \(last)" }
    let contiguous = zip(sorted, sorted.dropFirst()).allSatisfy { $1 == $0 + 1 }
    return contiguous ? "days \(first)–\(last)" : "days " + sorted.map(String.init).joined(separator: ", ")
  }
}
