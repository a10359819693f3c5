import Journal
import Menu
import Tabs

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The undo history as a checkpoint holds it (`JSONEncoder`'s synthesized
/// form), read by hand: every process that opens the till decodes the last
/// checkpoint, and its hundred entries were most of what `JSONDecoder` did
/// there. Nil, moving nothing, on anything but that exact form; the
/// checkpoint then leaves the history to `JSONDecoder`
/// (`everyCheckpointReadsAsTheDecoderReadsIt` compares both readings).
extension JournalJSONReader {
  /// `[{"record":…,"step":…},…]`.
  package mutating func undoEntries() -> [UndoHistory.Entry]? {
    let start = index
    guard let entries = undoArray() else {
      index = start
      return nil
    }
    return entries
  }

  private mutating func undoArray() -> [UndoHistory.Entry]? {
    guard literal("[") else { return nil }
    var entries: [UndoHistory.Entry] = []
    if literal("]") { return entries }
    repeat {
      guard literal("{"), key("record"), let record = record(), nextKey("step"), let step = undoStep(),
        literal("}")
      else { return nil }
      entries.append(UndoHistory.Entry(record: record, step: step))
    } while literal(",")
    guard literal("]") else { return nil }
    return entries
  }

  /// One step: `{"closeTab":{"_0":{"raw":N},"previousNextID":M}}` and the like.
  private mutating func undoStep() -> UndoStep? {
    guard literal("{") else { return nil }
    let step: UndoStep
    if key("closeTab") {
      guard literal("{"), key("_0"), let tab = rawID(), nextKey("previousNextID"), let next = int(),
        literal("}")
      else { return nil }
      step = .closeTab(Tab.ID(raw: tab), previousNextID: next)
    } else if key("dropLastLine") {
      guard literal("{"), key("_0"), let tab = rawID(), literal("}") else { return nil }
      step = .dropLastLine(Tab.ID(raw: tab))
    } else if key("insertLine") {
      guard literal("{"), key("_0"), let item = rawID(), nextKey("at"), let at = int(), nextKey("tab"),
        let tab = rawID(), literal("}")
      else { return nil }
      step = .insertLine(Item.ID(raw: item), at: at, tab: Tab.ID(raw: tab))
    } else if key("reopen") {
      guard literal("{"), key("_0"), let id = rawID(), nextKey("needs"), let needs = ingredientCounts(),
        nextKey("tab"), let tab = tab(), nextKey("total"), let total = decimal(), literal("}")
      else { return nil }
      step = .reopen(Tab.ID(raw: id), tab: tab, total: total, needs: needs)
    } else if key("unrestock") {
      guard literal("{"), key("_0"), let name = string(), let ingredient = Ingredient(rawValue: name), nextKey("count"),
        let count = int(), literal("}")
      else { return nil }
      step = .unrestock(ingredient, count: count)
    } else {
      return nil
    }
    return literal("}") ? step : nil
  }

  /// A tab as the encoder writes it: `{"customer":"…","lines":[{"raw":L},…]}`.
  package mutating func tab() -> Tab? {
    guard literal(#"{"customer":"#), let customer = string(), literal(#","lines":["#) else { return nil }
    var lines: [Item.ID] = []
    if !literal("]") {
      repeat {
        guard let line = rawID() else { return nil }
        lines.append(Item.ID(raw: line))
      } while literal(",")
      guard literal("]") else { return nil }
    }
    guard literal("}") else { return nil }
    return Tab(customer: customer, lines: lines)
  }

  /// `[Ingredient: Int]` as the encoder writes a dictionary whose keys are not
  /// strings: `["beans",1,"milk",2]`, in the dictionary's order. A key twice is
  /// left to the decoder.
  private mutating func ingredientCounts() -> [Ingredient: Int]? {
    guard literal("[") else { return nil }
    var counts: [Ingredient: Int] = [:]
    if literal("]") { return counts }
    repeat {
      guard let name = string(), let ingredient = Ingredient(rawValue: name), literal(","), let count = int(),
        counts.updateValue(count, forKey: ingredient) == nil
      else { return nil }
    } while literal(",")
    return literal("]") ? counts : nil
  }
}
