import KioskApp
import Menu
import Stock
import Tabs

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The commands that write, through the one writer: each checks and resolves
/// its arguments, runs the command, and returns its result.
@MainActor
enum WriteCommands {

  /// `#3` or `3`: a tab number.
  static func tabID(_ text: String) throws(KioskFailure) -> Tab.ID {
    let digits = text.hasPrefix("#") ? String(text.dropFirst()) : text
    guard let number = Int(digits), number > 0 else { throw .usage("'\(text)' is not a tab number") }
    return Tab.ID(raw: number)
  }

  /// An item by number or by name (any case).
  static func item(_ text: String, on menu: MenuState) throws(KioskFailure) -> (Item.ID, Item) {
    let name = try FreeText.validated(text, as: "an item name")
    let byNumber = Int(name).map { Item.ID(raw: $0) }.flatMap { menu.items[$0] != nil ? $0 : nil }
    let byName = menu.items.first { $0.value.name.lowercased() == name.lowercased() }?.key
    guard let id = byNumber ?? byName, let item = menu.items[id] else {
      throw .domain("no item '\(name)' on the menu")
    }
    return (id, item)
  }

  struct RestockOutput: CommandOutput {
    var command = "restock"
    var ingredient: String
    var added: Int
    var units: Int
    var text: [String] { ["restocked \(ingredient): +\(added), now \(units)"] }
  }

  static func restock(_ shell: TillShell, ingredient name: String, count text: String) async throws -> RestockOutput {
    let name = try FreeText.validated(name, as: "an ingredient name")
    guard let ingredient = Ingredient.allCases.first(where: { $0.rawValue.lowercased() == name.lowercased() }) else {
      let names = Ingredient.allCases.map(\.rawValue).joined(separator: ", ")
      throw KioskFailure.domain("no ingredient '\(name)'; ingredients are \(names)")
    }
    guard let count = Int(text), count >= 1, count <= StockState.maxUnits else {
      throw KioskFailure.usage("a restock count is a whole number from 1 to \(StockState.maxUnits), not '\(text)'")
    }
    try await shell.restock(ingredient, count: count)
    return RestockOutput(
      ingredient: ingredient.rawValue, added: count, units: shell.snapshot.stock.units[ingredient, default: 0])
  }

  struct OpenOutput: CommandOutput {
    var command = "open"
    var tab: Int
    var customer: String
    var text: [String] { [shellLine] }
    // Its bytes copied into the string's one allocation, not appended or
    // interpolated: the shell prints one of these per open.
    var shellLine: String {
      var customer = customer
      let number = String(tab)
      return customer.withUTF8 { name in
        let prefix = "opened tab #".utf8
        let middle = " for ".utf8
        let count = prefix.count + number.utf8.count + middle.count + name.count
        return String(unsafeUninitializedCapacity: count) { buffer in
          var end = buffer.initialize(fromContentsOf: prefix)
          end = buffer[end...].initialize(fromContentsOf: number.utf8)
          end = buffer[end...].initialize(fromContentsOf: middle)
          return buffer[end...].initialize(fromContentsOf: name)
        }
      }
    }
  }

  static func open(_ shell: TillShell, customer text: String) async throws -> OpenOutput {
    let customer = try FreeText.validated(text, as: "a customer name")
    let id = try await shell.openTab(for: customer)
    return OpenOutput(tab: id.raw, customer: customer)
  }

  struct LineOutput: CommandOutput {
    var command: String
    var tab: Int
    var item: Int
    var name: String
    var items: Int
    var customer: String
    var text: [String] {
      let count = "\(items) item\(items == 1 ? "" : "s")"
      return command == "add"
        ? ["added \(name) to tab #\(tab) (\(customer)): \(count)"]
        : ["removed \(name) from tab #\(tab) (\(customer)): \(count)"]
    }
  }

  static func add(_ shell: TillShell, tab text: String, item name: String) async throws -> LineOutput {
    let tab = try tabID(text)
    let (id, item) = try item(name, on: shell.snapshot.menu)
    do { try await shell.add(id, to: tab) } catch KioskError.cannotMake(_, let short) {
      throw KioskFailure.domain("\(item.name) cannot be made now: not enough \(short.rawValue)")
    }
    return try lineOutput("add", shell, tab: tab, item: id, name: item.name)
  }

  static func remove(_ shell: TillShell, tab text: String, item name: String) async throws -> LineOutput {
    let tab = try tabID(text)
    let (id, item) = try item(name, on: shell.snapshot.menu)
    try await shell.remove(id, from: tab)
    return try lineOutput("remove", shell, tab: tab, item: id, name: item.name)
  }

  private static func lineOutput(_ command: String, _ shell: TillShell, tab: Tab.ID, item: Item.ID, name: String)
    throws -> LineOutput
  {
    guard let current = shell.snapshot.tabs.open[tab] else { throw KioskError.unknownTab(tab) }
    return LineOutput(
      command: command, tab: tab.raw, item: item.raw, name: name, items: current.lines.count,
      customer: current.customer)
  }

  struct SettleOutput: CommandOutput {
    struct Line: Encodable {
      var name: String
      var price: String
    }
    var command = "settle"
    var tab: Int
    var customer: String
    var lines: [Line]
    var total: String
    var chargedAt: String
    var reference: String
    var key: String
    var text: [String] {
      let rows =
        lines.map { ["  \($0.name)", $0.price] } + [
          ["  total", total], ["  charged at", chargedAt], ["  reference", reference],
        ]
      return ["receipt for tab #\(tab) (\(customer))"] + table(["", ""], rows).dropFirst()
    }
  }

  static func settle(_ shell: TillShell, tab text: String) async throws -> SettleOutput {
    let tab = try tabID(text)
    // Only the tab and its items are read before the charge: a snapshot held
    // across the await would make the commit copy every tab.
    let current = shell.tab(tab)
    let lines = current.map { shell.items($0.lines) } ?? []
    let receipt = try await shell.settle(tab)
    return SettleOutput(
      tab: tab.raw, customer: current?.customer ?? "",
      lines: lines.map { SettleOutput.Line(name: $0.name, price: money($0.price)) },
      total: money(receipt.total), chargedAt: timestamp(receipt.chargedAt), reference: receipt.reference,
      key: receipt.key?.raw ?? "")
  }

  struct UndoOutput: CommandOutput {
    var command = "undo"
    var undid: String
    var refund: String?
    var text: [String] { ["undid: \(undid)" + (refund.map { "; refunded as \($0)" } ?? "")] }
  }

  static func undo(_ shell: TillShell) async throws -> UndoOutput {
    guard let undone = try await shell.undo() else { throw KioskFailure.domain("nothing to undo") }
    return UndoOutput(undid: ReadCommands.describe(undone.record, menu: shell.snapshot.menu), refund: undone.refund)
  }
}

extension WriteCommands {
  struct CloseDayOutput: CommandOutput {
    struct Sale: Encodable {
      var item: String
      var count: Int
      var total: String
    }
    struct Movement: Encodable {
      var tab: Int
      var amount: String
      var reference: String
    }
    struct Units: Encodable {
      var ingredient: String
      var opening: Int
      var closing: Int
    }
    var command = "close-day"
    var day: Int
    var sales: [Sale]
    var charges: [Movement]
    var refunds: [Movement]
    var charged: String
    var refunded: String
    var net: String
    var stock: [Units]
    var archivedTabs: Int
    var carriedOverTabs: Int
    var archive: String
    /// Records lost to damage, and those after them the replay could not count.
    var uncountedRecords: [Int]
    /// What became of the sync `close-day` starts when a head office is configured (nil when none is).
    var backgroundSync: String?
    var text: [String] {
      ["Z report, day \(day)"]
        + (uncountedRecords.isEmpty
          ? []
          : [
            "warning: \(uncountedRecords.count == 1 ? "record" : "records") "
              + "\(uncountedRecords.map(String.init).joined(separator: ", ")) "
              + "\(uncountedRecords.count == 1 ? "was" : "were") lost to damage ('kiosk repair') or "
              + "\(uncountedRecords.count == 1 ? "follows" : "follow") a lost one; "
              + "what they sold is not in the sales below (their charges and refunds are)"
          ])
        + (sales.isEmpty
          ? ["sales: none"]
          : table(["ITEM", "SOLD", "TOTAL"], sales.map { [$0.item, String($0.count), $0.total] }))
        + charges.map { "charge: tab #\($0.tab) \($0.amount) as \($0.reference)" }
        + refunds.map { "refund: tab #\($0.tab) \($0.amount) as \($0.reference)" }
        + ["charged \(charged), refunded \(refunded), net \(net)"]
        + table(
          ["INGREDIENT", "OPENING", "CLOSING"], stock.map { [$0.ingredient, String($0.opening), String($0.closing)] })
        + [
          "closed day \(day): \(archivedTabs) settled tabs archived in \(archive); "
            + "\(carriedOverTabs) open tabs carried over to day \(day + 1)"
        ] + (backgroundSync.map { [$0] } ?? [])
    }
  }

  static func closeDay(_ shell: TillShell) async throws -> CloseDayOutput {
    let report = try await shell.closeDay()
    let archive = KioskSegments.archivePath(of: shell.journalPath, day: report.day)
    func movement(_ item: ZReport.Movement) -> CloseDayOutput.Movement {
      CloseDayOutput.Movement(tab: item.tab.raw, amount: money(item.amount), reference: item.reference)
    }
    return CloseDayOutput(
      day: report.day,
      sales: report.sales.map { CloseDayOutput.Sale(item: $0.name, count: $0.count, total: money($0.total)) },
      charges: report.charges.map(movement), refunds: report.refunds.map(movement), charged: money(report.charged),
      refunded: money(report.refunded), net: money(report.net),
      stock: Ingredient.allCases.map {
        CloseDayOutput.Units(
          ingredient: $0.rawValue, opening: report.openingStock.units[$0, default: 0],
          closing: report.closingStock.units[$0, default: 0])
      }, archivedTabs: report.settledTabs, carriedOverTabs: report.openTabs, archive: archive,
      uncountedRecords: report.uncounted)
  }
}
