import Journal
import KioskApp
import KioskCommands
import Menu
import Stock
import Tabs

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The commands that only read: each returns a result with its text and JSON.
@MainActor
enum ReadCommands {

  struct MenuOutput: CommandOutput {
    struct Row: Encodable {
      var id: Int
      var name: String
      var price: String
      var available: Bool
    }
    var command = "menu"
    var items: [Row]
    var text: [String] {
      table(
        ["ID", "NAME", "PRICE", "AVAILABLE"],
        items.map { [String($0.id), $0.name, $0.price, $0.available ? "yes" : "no"] })
    }
  }

  static func menu(_ view: KioskView) -> MenuOutput {
    MenuOutput(
      items: view.snapshot.menu.items.sorted { $0.key < $1.key }.map { id, item in
        MenuOutput.Row(id: id.raw, name: item.name, price: money(item.price), available: view.isAvailable(id))
      })
  }

  struct StockOutput: CommandOutput {
    struct Row: Encodable {
      var ingredient: String
      var units: Int
    }
    var command = "stock"
    var stock: [Row]
    var text: [String] { table(["INGREDIENT", "UNITS"], stock.map { [$0.ingredient, String($0.units)] }) }
  }

  static func stock(_ view: KioskView) -> StockOutput {
    let units = view.snapshot.stock.units
    return StockOutput(
      stock: Ingredient.allCases.map { StockOutput.Row(ingredient: $0.rawValue, units: units[$0, default: 0]) })
  }

  struct BoardOutput: CommandOutput {
    struct Row: Encodable {
      var tab: Int
      var customer: String
      var items: [String]
      var total: String
      var settled: Bool
    }
    var command = "board"
    /// The open tabs, and with `--all` the settled ones, oldest first.
    var tabs: [Row]
    /// The total of the tabs still open, and of the settled ones.
    var openTotal: String
    var settledTotal: String
    /// How many tabs the day settled.
    var settledTabs: Int
    /// With `--all`: settled tabs the listing could not find (lost to damage).
    var unlistedSettledTabs: Int?
    var lines: [String]
    var text: [String] { lines.isEmpty ? ["no tabs"] : lines }

    enum CodingKeys: String, CodingKey { case command, tabs, openTotal, settledTotal, settledTabs, unlistedSettledTabs }
  }

  /// `board`: the open tabs and what the day settled; with `all`, each
  /// settled tab too (from the day's settled-tabs file), in one list by number.
  static func board(_ view: KioskView, all: Bool = false) -> BoardOutput {
    var entries = view.board
    let settled = view.settled
    var unlisted: Int?
    if all, let listing = view.settledListing {
      let menu = view.snapshot.menu
      entries += listing.tabs.map { settled in
        BoardEntry(
          tab: settled.receipt.tab, customer: settled.tab.customer,
          items: settled.tab.lines.compactMap { menu.items[$0]?.name }, total: settled.receipt.total, settled: true)
      }
      entries.sort { $0.tab < $1.tab }
      unlisted = listing.unlisted
    }
    var texts = MoneyTexts()
    var rows: [BoardOutput.Row] = []
    var lines: [String] = []
    rows.reserveCapacity(entries.count)
    lines.reserveCapacity(entries.count + 2)
    // The open total in whole cents: adding `Decimal`s to a growing sum cost
    // about 5,000 instructions a tab. Exact, so it equals the `Decimal` sum;
    // a total with a fraction of a cent (or an overflow) falls back to that.
    var openCents: Int? = 0
    for entry in entries {
      let total = texts.money(entry.total)
      if !entry.settled { openCents = add(openCents, total.units) }
      rows.append(
        BoardOutput.Row(
          tab: entry.tab.raw, customer: entry.customer, items: entry.items, total: total.text,
          settled: entry.settled))
      lines.append(boardLine(entry, total: total.text))
    }
    let openTotal =
      openCents.map { money(minorUnits: $0) }
      ?? money(entries.filter { !$0.settled }.reduce(Decimal.zero) { $0 + $1.total })
    let settledTotal = money(settled.total)
    if settled.count > 0, !all {
      lines.append(
        "settled: \(settled.count) tab\(settled.count == 1 ? "" : "s"), \(settledTotal) ('kiosk board --all' lists them)"
      )
    }
    if let unlisted, unlisted > 0 {
      lines.append(
        "warning: \(unlisted) settled tab\(unlisted == 1 ? " is" : "s are") not listed: "
          + "a record of \(unlisted == 1 ? "its tab" : "their tabs") was lost to damage (placeholders 'kiosk repair' "
          + "left), so what \(unlisted == 1 ? "it" : "they") held is unknown; the settled count and total include "
          + "\(unlisted == 1 ? "it" : "them")")
    }
    return BoardOutput(
      tabs: rows, openTotal: openTotal, settledTotal: settledTotal, settledTabs: settled.count,
      unlistedSettledTabs: unlisted, lines: lines)
  }

  /// `sum + units`, or nil when either is unknown or the sum overflows.
  private static func add(_ sum: Int?, _ units: Int?) -> Int? {
    guard let sum, let units else { return nil }
    let (total, overflow) = sum.addingReportingOverflow(units)
    return overflow ? nil : total
  }

  /// One line of `history`: the day, the record's number in its day's file, and the record in words.
  struct HistoryRow: Encodable {
    var day: Int
    var sequence: Int
    var record: String
  }

  /// `history [--all]`: streams the live day's journal, or every day's, one
  /// line per record as it is read (bounded memory; with `--json`, one JSON
  /// object written piece by piece). Returns nil: it prints for itself.
  static func history(_ context: CommandContext) throws -> (any CommandOutput)? {
    let json = context.options.json
    let live = try context.livePath()
    let progress = ProgressLine(what: "history", enabled: !json)
    let output = StandardOutput()
    if json { output.write(#"{"command":"history","records":["#) }
    var first = true
    var menu = KioskDefaults.menu
    let unread: Int
    do {
      // A set-aside day is named where its records would be, on stderr so the listing stays records only.
      let warnSetAside = { (segment: KioskSegments.Segment) in
        context.warn("day \(segment.day ?? 0) was set aside as damaged ('\(segment.path)'); its records are not read")
      }
      unread = try KioskJournalReader.walkDays(
        journal: live, all: context.options.all, progress: progress.update, setAside: warnSetAside
      ) { position, entry in
        let text: String
        switch entry {
        case .checkpoint(let checkpoint):
          if position.sequence == 1 { menu = checkpoint.state.menu }
          text = describe(checkpoint)
        case .record(let record):
          if case .initialized(let initial, _) = record { menu = initial }
          text = describe(record, menu: menu)
        case .lost(let record):
          text =
            "lost to damage: \(record == .unknown ? "a record" : "a \(record)") ('kiosk repair' left this in its place)"
        }
        // With --all, each file starts with a line naming its day.
        if !json, context.options.all, position.sequence == 1 {
          output.write("day \(position.day): \(position.path)\n")
        }
        if json {
          output.write(
            (first ? "" : ",") + jsonLine(HistoryRow(day: position.day, sequence: position.sequence, record: text)))
          first = false
        } else {
          output.write("\(position.sequence)  \(text)\n")
        }
      }
    } catch {
      // What was read stays printed (and the JSON stays well formed); the error follows on stderr.
      progress.finish()
      if json { output.write("]}\n") }
      output.flush()
      throw error
    }
    progress.finish()
    if json { output.write("]}\n") }
    output.flush()
    if unread > 0 {
      context.warn(
        "the journal ends in \(bytes(unread)) of an unfinished write, not read; "
          + "the next command that writes saves and cuts them")
    }
    return nil
  }

  struct VerifyOutput: CommandOutput {
    var command = "verify"
    var records: Int
    var files: Int
    var checkpoints: Int
    var digest: String
    var identical: Bool
    var charges: Int
    var refunds: Int
    var pending: [String]
    /// Days whose archives were set aside as damaged: not read, not checked.
    var setAsideDays: [Int]
    /// Records `kiosk repair` replaced by placeholders: the replay took the state up at the next checkpoint.
    var lost: [String]
    /// Settled-tabs files that do not hold what their day's last checkpoint says (the live day's is
    /// rebuilt by the next writer; an archive's is only a copy of what its journal holds).
    var staleSettledTabsFiles: [String]
    var text: [String] {
      let location = files == 1 ? "" : " in \(files) files, each day starting where the one before ended"
      return setAsideDays.map { "set aside: day \($0) was set aside as damaged; it is not read or checked" }
        + lost.map {
          "lost: \($0) was lost to damage ('kiosk repair'); the replay took the state up at the next checkpoint"
        }
        + [
          "verified \(records) records\(location) (\(checkpoints) checkpoints checked against the replay): "
            + "two replays are byte-identical, state \(digest); "
            + "the processor agrees (\(charges) charges, \(refunds) refunds)"
        ] + pending.map { "pending: \($0)" }
        + staleSettledTabsFiles.map {
          "note: the settled-tabs file '\($0)' does not hold what its day's last checkpoint says (missing or damaged); "
            + "it is derived from the day's journal, which holds every settle (the live day's is rebuilt by the "
            + "next writer)"
        }
    }
  }

  /// `reconcile`: the ledger against the money records of every day's journal.
  static func reconcile(_ context: CommandContext) throws -> ReconcileOutput {
    let point = context.readPoint()
    let view = try context.view(withLedger: true, at: point)
    let audit = try context.paymentAudit(view, at: point)
    let output = reconcileOutput(audit)
    guard audit.agrees else { throw OutputFailure(output: output, failure: .domain(output.verdict)) }
    return output
  }

  static func reconcileOutput(_ audit: PaymentAudit) -> ReconcileOutput {
    ReconcileOutput(
      charges: audit.charges, chargedTotal: money(audit.chargedTotal), refunds: audit.refunds,
      refundedTotal: money(audit.refundedTotal), settledTotal: money(audit.settledTotal),
      undoneTotal: money(audit.undoneTotal), pendingMovements: audit.pendingMovements,
      pendingTotal: money(audit.pendingTotal), pending: audit.pending, mismatches: audit.mismatches,
      setAsideMovements: audit.setAsideMovements)
  }

  /// A record in words, for `history`.
  static func describe(_ record: KioskRecord, menu: MenuState) -> String {
    func name(_ item: Item.ID) -> String { menu.items[item]?.name ?? "item \(item.raw)" }
    switch record {
    case .initialized(let menu, let stock):
      return
        "initialized: \(menu.items.count) menu items, \(stock.units.values.reduce(Decimal.zero) { $0 + Decimal($1) }) units of stock"
    case .opened(let tab, let customer): return "open tab #\(tab.raw) for \(customer)"
    case .added(let item, let tab): return "add \(name(item)) to tab #\(tab.raw)"
    case .removed(let item, let tab): return "remove \(name(item)) from tab #\(tab.raw)"
    case .settled(let receipt):
      return
        "settle tab #\(receipt.tab.raw): \(money(receipt.total)) as \(receipt.reference) at \(timestamp(receipt.chargedAt))"
    case .restocked(let ingredient, let count): return "restock \(ingredient.rawValue) +\(count)"
    case .undone(let refund, _): return "undo" + (refund.map { " (refund \($0))" } ?? "")
    case .paymentIntent(let intent):
      return "\(intent.kind.rawValue) intent for tab #\(intent.tab.raw): \(money(intent.amount)) under \(intent.key)"
    case .paymentAbandoned(let key, let reason): return "payment \(key) abandoned: \(reason)"
    case .dayClosed(let day, let archive): return "close day \(day): this file is its archive, \(archive)"
    case .tillNamed(let till): return "the till is named '\(till)'"
    }
  }

  /// A checkpoint in words, for `history`.
  static func describe(_ checkpoint: KioskCheckpoint) -> String {
    let tabs = checkpoint.state.tabs
    let start = checkpoint.previousDay.map { "day \(checkpoint.day) opens after \($0.archive): " } ?? ""
    return "checkpoint: \(start)\(tabs.open.count) open tabs, \(tabs.settled.count) settled, "
      + "\(checkpoint.undo.count) undoable commands, state \(checkpoint.state.digest)"
  }
}
