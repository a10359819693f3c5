import Foundation
import Journal
import KioskApp
import Menu
import Stock
import Tabs

/// Runs one parsed command on an open kiosk and describes the result.
@MainActor
struct CommandRunner {
  let shell: KioskShell

  func run(_ command: KioskCommand) throws -> Output {
    switch command {
    case .menu: return menu()
    case .stock: return stock()
    case .board: return board()
    case .history: return history()
    case .verify: return try verify()
    case .reconcile: return try reconcile()
    case .restock(let name, let count): return try restock(name, count)
    case .open(let customer):
      let id = try shell.openTab(for: customer)
      return Output(
        lines: ["opened tab #\(id.raw) for \(customer)"],
        json: ["command": .string("open"), "tab": .number(id.raw), "customer": .string(customer)])
    case .add(let tabNumber, let itemName): return try add(itemName, to: Tab.ID(raw: tabNumber))
    case .remove(let tabNumber, let itemName): return try remove(itemName, from: Tab.ID(raw: tabNumber))
    case .settle(let tabNumber): return try settle(Tab.ID(raw: tabNumber))
    case .undo: return try undo()
    case .help, .demo, .shell, .repair:
      throw KioskFailure.usage("'\(command)' cannot run here")
    }
  }

  // MARK: Reads

  private func menu() -> Output {
    let items = shell.snapshot.menu.items.sorted { $0.key < $1.key }.map {
      ($0.key, $0.value, shell.isAvailable($0.key))
    }
    let rows = items.map { id, item, available in
      [String(id.raw), item.name, money(item.price), available ? "yes" : "no"]
    }
    let json = items.map { id, item, available in
      JSONValue.object([
        "id": .number(id.raw), "name": .string(item.name), "price": .string(money(item.price)),
        "available": .bool(available),
      ])
    }
    return Output(
      lines: table(["ID", "NAME", "PRICE", "AVAILABLE"], rows),
      json: ["command": .string("menu"), "items": .array(json)])
  }

  private func stock() -> Output {
    let units = shell.snapshot.stock.units
    let rows = Ingredient.allCases.map { [$0.rawValue, String(units[$0, default: 0])] }
    let json = Ingredient.allCases.map {
      JSONValue.object(["ingredient": .string($0.rawValue), "units": .number(units[$0, default: 0])])
    }
    return Output(
      lines: table(["INGREDIENT", "UNITS"], rows), json: ["command": .string("stock"), "stock": .array(json)])
  }

  private func board() -> Output {
    let snapshot = shell.snapshot
    let board = shell.board
    let tabs = snapshot.tabs.open.sorted { $0.key < $1.key }.map { id, tab in
      JSONValue.object([
        "tab": .number(id.raw), "customer": .string(tab.customer), "settled": .bool(tab.settled),
        "items": .array(tab.lines.map { .string(snapshot.menu.items[$0]?.name ?? "?") }),
      ])
    }
    return Output(
      lines: board.isEmpty ? ["no tabs"] : board.split(separator: "\n").map(String.init),
      json: ["command": .string("board"), "tabs": .array(tabs)])
  }

  private func history() -> Output {
    let menu = shell.snapshot.menu
    let described = shell.records.map { describe($0, menu: menu) }
    let lines = described.enumerated().map { index, text in
      "\(String(index + 1).padding(toLength: 5, withPad: " ", startingAt: 0))\(text)"
    }
    let json = described.enumerated().map { index, text in
      JSONValue.object(["sequence": .number(index + 1), "record": .string(text)])
    }
    return Output(lines: lines, json: ["command": .string("history"), "records": .array(json)])
  }

  private func verify() throws -> Output {
    let verification = try KioskReplay.verify(shell.records)
    guard verification.isDeterministic else {
      throw KioskFailure(code: .journal, message: "two replays of the journal gave different states")
    }
    let live = shell.snapshot.digest
    guard live == verification.digest else {
      throw KioskFailure(
        code: .journal, message: "the replayed state \(verification.digest) differs from the open state \(live)")
    }
    let audit = shell.paymentAudit
    guard audit.agrees else {
      throw KioskFailure.domain("the processor and the journal disagree: " + audit.mismatches.joined(separator: "; "))
    }
    return Output(
      lines: [
        "verified \(verification.recordCount) records: two replays are byte-identical, state \(verification.digest); "
          + "the processor agrees (\(audit.charges) charges, \(audit.refunds) refunds)"
      ],
      json: [
        "command": .string("verify"), "records": .number(verification.recordCount),
        "digest": .string(verification.digest), "identical": .bool(true),
      ])
  }

  /// The processor's ledger against the journal; exit 65 on any mismatch.
  private func reconcile() throws -> Output {
    let audit = shell.paymentAudit
    let summary =
      "processor: \(audit.charges) charges (\(money(audit.chargedTotal))), \(audit.refunds) refunds "
      + "(\(money(audit.refundedTotal))); journal: settled \(money(audit.settledTotal)), "
      + "refunded \(money(audit.undoneTotal))"
    guard audit.agrees else {
      throw KioskFailure.domain(([summary] + audit.mismatches.map { "mismatch: \($0)" }).joined(separator: "\n"))
    }
    return Output(
      lines: [summary, "reconciled: every charge and refund maps to exactly one journaled command"],
      json: [
        "command": .string("reconcile"), "charges": .number(audit.charges),
        "chargedTotal": .string(money(audit.chargedTotal)), "refunds": .number(audit.refunds),
        "refundedTotal": .string(money(audit.refundedTotal)), "settledTotal": .string(money(audit.settledTotal)),
        "undoneTotal": .string(money(audit.undoneTotal)), "mismatches": .array([]),
      ])
  }

  // MARK: Commands

  private func restock(_ name: String, _ count: Int) throws -> Output {
    guard let ingredient = Ingredient.allCases.first(where: { $0.rawValue.lowercased() == name.lowercased() }) else {
      let names = Ingredient.allCases.map(\.rawValue).joined(separator: ", ")
      throw KioskFailure.domain("no ingredient '\(name)'; ingredients are \(names)")
    }
    try shell.restock(ingredient, count: count)
    let now = shell.snapshot.stock.units[ingredient, default: 0]
    return Output(
      lines: ["restocked \(ingredient.rawValue): +\(count), now \(now)"],
      json: [
        "command": .string("restock"), "ingredient": .string(ingredient.rawValue), "added": .number(count),
        "units": .number(now),
      ])
  }

  private func add(_ name: String, to tab: Tab.ID) throws -> Output {
    let snapshot = shell.snapshot
    let byNumber = Int(name).map { Item.ID(raw: $0) }.flatMap { snapshot.menu.items[$0] != nil ? $0 : nil }
    let byName = snapshot.menu.items.first { $0.value.name.lowercased() == name.lowercased() }?.key
    guard let id = byNumber ?? byName, let item = snapshot.menu.items[id] else {
      throw KioskFailure.domain("no item '\(name)' on the menu")
    }
    guard let current = snapshot.tabs.open[tab] else { throw KioskError.unknownTab(tab) }
    guard !current.settled else { throw KioskError.alreadySettled(tab) }
    if !shell.isAvailable(id) {
      let short = item.recipe.keys.sorted { $0.rawValue < $1.rawValue }
        .first { snapshot.stock.units[$0, default: 0] < item.recipe[$0]! }
      throw KioskFailure.domain("\(item.name) cannot be made now: not enough \(short?.rawValue ?? "stock")")
    }
    try shell.add(id, to: tab)
    let lines = shell.snapshot.tabs.open[tab]!.lines
    return Output(
      lines: [
        "added \(item.name) to tab #\(tab.raw) (\(current.customer)): \(lines.count) item\(lines.count == 1 ? "" : "s")"
      ],
      json: [
        "command": .string("add"), "tab": .number(tab.raw), "item": .number(id.raw), "name": .string(item.name),
        "items": .number(lines.count),
      ])
  }

  private func remove(_ name: String, from tab: Tab.ID) throws -> Output {
    let menu = shell.snapshot.menu
    let byNumber = Int(name).map { Item.ID(raw: $0) }.flatMap { menu.items[$0] != nil ? $0 : nil }
    let byName = menu.items.first { $0.value.name.lowercased() == name.lowercased() }?.key
    guard let id = byNumber ?? byName, let item = menu.items[id] else {
      throw KioskFailure.domain("no item '\(name)' on the menu")
    }
    try shell.remove(id, from: tab)
    let lines = shell.snapshot.tabs.open[tab]!.lines
    return Output(
      lines: ["removed \(item.name) from tab #\(tab.raw): \(lines.count) item\(lines.count == 1 ? "" : "s")"],
      json: [
        "command": .string("remove"), "tab": .number(tab.raw), "item": .number(id.raw), "name": .string(item.name),
        "items": .number(lines.count),
      ])
  }

  private func settle(_ tab: Tab.ID) throws -> Output {
    let before = shell.snapshot
    let receipt = try shell.settle(tab)
    let current = before.tabs.open[tab]!
    let names = current.lines.map { before.menu.items[$0]! }
    let rows =
      names.map { ["  \($0.name)", money($0.price)] } + [
        ["  total", money(receipt.total)], ["  charged at", timestamp(receipt.chargedAt)],
        ["  reference", receipt.reference],
      ]
    let lines = ["receipt for tab #\(tab.raw) (\(current.customer))"] + table(["", ""], rows).dropFirst()
    return Output(
      lines: lines,
      json: [
        "command": .string("settle"), "tab": .number(tab.raw), "customer": .string(current.customer),
        "lines": .array(names.map { .object(["name": .string($0.name), "price": .string(money($0.price))]) }),
        "total": .string(money(receipt.total)), "chargedAt": .string(timestamp(receipt.chargedAt)),
        "reference": .string(receipt.reference),
      ])
  }

  private func undo() throws -> Output {
    guard let undone = try shell.undo() else { throw KioskFailure.domain("nothing to undo") }
    let undid = describe(undone.record, menu: shell.snapshot.menu)
    var line = "undid: \(undid)"
    if let refund = undone.refund { line += "; refunded as \(refund)" }
    var json: [String: JSONValue] = ["command": .string("undo"), "undid": .string(undid)]
    json["refund"] = undone.refund.map(JSONValue.string) ?? .null
    return Output(lines: [line], json: json)
  }

  // MARK: Records in words

  func describe(_ record: KioskRecord, menu: MenuState) -> String {
    switch record {
    case .initialized(let menu, let stock):
      return "initialized: \(menu.items.count) menu items, \(stock.units.values.reduce(0, +)) units of stock"
    case .opened(let tab, let customer): return "open tab #\(tab.raw) for \(customer)"
    case .added(let item, let tab):
      let name = menu.items[item]?.name ?? "item \(item.raw)"
      return "add \(name) to tab #\(tab.raw)"
    case .settled(let receipt):
      return
        "settle tab #\(receipt.tab.raw): \(money(receipt.total)) as \(receipt.reference) at \(timestamp(receipt.chargedAt))"
    case .restocked(let ingredient, let count): return "restock \(ingredient.rawValue) +\(count)"
    case .undone(let refund, _): return "undo" + (refund.map { " (refund \($0))" } ?? "")
    case .removed(let item, let tab):
      let name = menu.items[item]?.name ?? "item \(item.raw)"
      return "remove \(name) from tab #\(tab.raw)"
    case .paymentIntent(let intent):
      return "\(intent.kind.rawValue) intent for tab #\(intent.tab.raw): \(money(intent.amount)) under \(intent.key)"
    case .paymentAbandoned(let key, let reason): return "payment \(key) abandoned: \(reason)"
    }
  }
}
