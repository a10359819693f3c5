import Foundation
import KioskApp
import Menu
import Stock
import Tabs

/// The commands that only read: each returns a result with its text and JSON.
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
    var tabs: [Row]
    /// The total of the tabs still open, and of the settled ones.
    var openTotal: String
    var settledTotal: String
    var lines: [String]
    var text: [String] { lines.isEmpty ? ["no tabs"] : lines }

    enum CodingKeys: String, CodingKey { case command, tabs, openTotal, settledTotal }
  }

  static func board(_ view: KioskView) -> BoardOutput {
    let entries = view.board
    let open = entries.filter { !$0.settled }.reduce(Decimal.zero) { $0 + $1.total }
    let settled = entries.filter(\.settled).reduce(Decimal.zero) { $0 + $1.total }
    return BoardOutput(
      tabs: entries.map {
        BoardOutput.Row(
          tab: $0.tab.raw, customer: $0.customer, items: $0.items, total: money($0.total), settled: $0.settled)
      },
      openTotal: money(open), settledTotal: money(settled), lines: entries.map(boardLine))
  }

  struct HistoryOutput: CommandOutput {
    struct Row: Encodable {
      var sequence: Int
      var record: String
    }
    var command = "history"
    var records: [Row]
    var text: [String] {
      let width = String(records.count).count
      return records.map {
        String(repeating: " ", count: width - String($0.sequence).count) + "\($0.sequence)  \($0.record)"
      }
    }
  }

  static func history(_ view: KioskView) -> HistoryOutput {
    let menu = view.snapshot.menu
    return HistoryOutput(
      records: view.records.enumerated().map { HistoryOutput.Row(sequence: $0 + 1, record: describe($1, menu: menu)) })
  }

  struct VerifyOutput: CommandOutput {
    var command = "verify"
    var records: Int
    var digest: String
    var identical: Bool
    var charges: Int
    var refunds: Int
    var pending: [String]
    var text: [String] {
      [
        "verified \(records) records: two replays are byte-identical, state \(digest); "
          + "the processor agrees (\(charges) charges, \(refunds) refunds)"
      ] + pending.map { "pending: \($0)" }
    }
  }

  static func verify(_ view: KioskView) throws -> VerifyOutput {
    let verification = try KioskReplay.verify(view.records)
    guard verification.isDeterministic else {
      throw KioskFailure(code: .journal, message: "two replays of the journal gave different states")
    }
    guard verification.digest == view.snapshot.digest else {
      throw KioskFailure(
        code: .journal,
        message: "the replayed state \(verification.digest) differs from the open state \(view.snapshot.digest)")
    }
    let audit = view.paymentAudit
    guard audit.agrees else {
      throw OutputFailure(
        output: try reconcile(view),
        failure: .domain("the processor and the journal disagree: \(audit.mismatches.count) mismatches"))
    }
    return VerifyOutput(
      records: verification.recordCount, digest: verification.digest, identical: true, charges: audit.charges,
      refunds: audit.refunds, pending: audit.pending)
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
      [summary] + pending.map { "pending: \($0)" } + mismatches.map { "mismatch: \($0)" } + [verdict]
    }
  }

  static func reconcile(_ view: KioskView) throws -> ReconcileOutput {
    let audit = view.paymentAudit
    let output = ReconcileOutput(
      charges: audit.charges, chargedTotal: money(audit.chargedTotal), refunds: audit.refunds,
      refundedTotal: money(audit.refundedTotal), settledTotal: money(audit.settledTotal),
      undoneTotal: money(audit.undoneTotal), pendingMovements: audit.pendingMovements,
      pendingTotal: money(audit.pendingTotal), pending: audit.pending, mismatches: audit.mismatches)
    guard audit.agrees else { throw OutputFailure(output: output, failure: .domain(output.verdict)) }
    return output
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
    }
  }
}
