import KioskCommands
import Menu
import Payment
import Stock
import Tabs

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Reading a checkpoint that journal format 2 wrote (no `format` key): its
/// tabs slice held every tab of the day, settled ones flagged, and its undo
/// history reverted a settle by flagging the tab open again (`unsettle`).
/// Such a checkpoint is read into today's form: the settled tabs leave the
/// state and are counted, priced by the checkpoint's own menu (a menu never
/// changes within a journal, and replay checked each receipt against it),
/// and each `unsettle` becomes a `reopen` that carries the tab it puts back.
/// Journals of formats 1 and 2 open and verify this way; nothing is written
/// in format 2 again (`Format2CheckpointTests`).
extension KioskCheckpoint {
  /// Reads format 2's bytes into the current form.
  static func decodingFormat2(_ bytes: ArraySlice<UInt8>) throws -> KioskCheckpoint {
    let reading = TabsFormat2Reading()
    let decoder = JSONDecoder()
    decoder.userInfo[TabsFormat2Reading.key] = reading
    let old = try decoder.decode(Format2.self, from: Data(bytes))
    var prices = ReplayWorld()
    prices.restore(old.state)
    var state = old.state
    state.tabs.settled = SettledTabs(
      count: reading.settledTabs.count,
      total: reading.settledTabs.values.reduce(Decimal.zero) { $0 + prices.price(of: $1.lines) })
    let undo = try old.undo.map { entry throws(Format2.Unreadable) -> UndoHistory.Entry in
      UndoHistory.Entry(record: entry.record, step: try entry.step.current(settled: reading.settledTabs, in: prices))
    }
    var checkpoint = KioskCheckpoint(
      day: old.day, state: state, undo: undo, openIntents: old.openIntents, paymentsJournaled: old.paymentsJournaled,
      previousDay: old.previousDay, ledgerNumbersUsed: old.ledgerNumbersUsed, settledTabs: nil, ledgerStart: nil)
    // A day's opening checkpoint names the digest of the state it carried,
    // in format 2's canonical form; that state is this checkpoint's, so the
    // digest is given again in today's form (verify still compares the
    // state itself with the day before's).
    checkpoint.previousDay?.carriedDigest = state.digest
    return checkpoint
  }

  /// A checkpoint as format 2 wrote it.
  struct Format2: Decodable {
    var day: Int
    var state: KioskSnapshot
    var undo: [Entry]
    var openIntents: [PaymentIntent]
    var paymentsJournaled: Bool
    var previousDay: ClosedDay?
    var ledgerNumbersUsed: Int?

    /// An undo history entry as format 2 wrote it.
    struct Entry: Decodable {
      var record: KioskRecord
      var step: Step
    }

    /// An inverse as format 2 wrote it.
    enum Step: Decodable {
      case closeTab(Tab.ID, previousNextID: Int)
      case dropLastLine(Tab.ID)
      case insertLine(Item.ID, at: Int, tab: Tab.ID)
      case unsettle(Tab.ID, needs: [Ingredient: Int])
      case unrestock(Ingredient, count: Int)

      /// Today's inverse: an `unsettle` carries the settled tab it reopens.
      func current(settled: [Tab.ID: Tab], in world: borrowing ReplayWorld) throws(Unreadable) -> UndoStep {
        switch self {
        case .closeTab(let tab, let previousNextID): return .closeTab(tab, previousNextID: previousNextID)
        case .dropLastLine(let tab): return .dropLastLine(tab)
        case .insertLine(let item, let index, let tab): return .insertLine(item, at: index, tab: tab)
        case .unrestock(let ingredient, let count): return .unrestock(ingredient, count: count)
        case .unsettle(let id, let needs):
          guard let tab = settled[id] else { throw Unreadable(tab: id) }
          return .reopen(id, tab: tab, total: world.price(of: tab.lines), needs: needs)
        }
      }
    }

    /// A format 2 checkpoint whose undo history reopens a tab it does not hold settled.
    struct Unreadable: Error, CustomStringConvertible {
      var tab: Tab.ID
      var description: String {
        "the checkpoint's undo history reopens tab #\(tab.raw), which it does not hold settled"
      }
    }
  }
}
