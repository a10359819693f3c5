import Journal
import Menu
import Payment
import Stock
import Tabs

/// What the reading commands show (menu, stock, board, history, verify,
/// reconcile): the state the journal replays to, the records, and the
/// processor's ledger. Built by a reader that takes no lock and writes nothing
/// (`read(journal:processor:)`), or by a running shell from its own state.
public struct KioskView: Sendable {
  /// The replayed state.
  public var snapshot: KioskSnapshot
  /// Every journaled record, oldest first.
  public var records: [KioskRecord]
  /// The processor's ledger, oldest first.
  public var ledger: [LocalProcessor.Entry]
  /// Bytes at the end of the journal that a reader left unread: a torn tail,
  /// or an append in flight. The next writer cuts a torn tail (and saves it).
  public var unreadTailBytes: Int

  /// Creates a view.
  public init(snapshot: KioskSnapshot, records: [KioskRecord], ledger: [LocalProcessor.Entry], unreadTailBytes: Int) {
    self.snapshot = snapshot
    self.records = records
    self.ledger = ledger
    self.unreadTailBytes = unreadTailBytes
  }

  /// Reads the journal, and the ledger when `processor` is given, without a
  /// lock and without writing. A journal that does not exist yet reads as a new
  /// one would start (the default menu and stock), and nothing is created.
  public static func read(journal: String, processor: String?) throws -> KioskView {
    var records: [KioskRecord]
    var unread = 0
    do {
      let recovery = try DurableJournal.read(path: journal)
      records = try recovery.decodedEntries(as: KioskRecord.self)
      unread = recovery.droppedBytes
    } catch .missing {
      records = []
    }
    if records.isEmpty { records = [.initialized(menu: KioskDefaults.menu, stock: KioskDefaults.stock)] }
    var world = ReplayWorld()
    _ = try KioskReplay.replay(records, into: &world)
    var ledger: [LocalProcessor.Entry] = []
    if let processor {
      do {
        ledger = try DurableJournal.read(path: processor).decodedEntries(as: LocalProcessor.Entry.self)
      } catch .missing {
        ledger = []
      } catch {
        throw KioskViewError.ledger(path: processor, error)
      }
    }
    return KioskView(snapshot: world.snapshot, records: records, ledger: ledger, unreadTailBytes: unread)
  }

  /// The slices as a world, for the domain's generic reads.
  private var world: ReplayWorld {
    var world = ReplayWorld()
    world.restore(snapshot)
    return world
  }

  /// Every tab, oldest first.
  public var board: [BoardEntry] { world.board }

  /// Whether the kitchen can make `item` now.
  public func isAvailable(_ item: Item.ID) -> Bool { world.isAvailable(item) }

  /// Intents without an outcome yet.
  public var openIntents: [PaymentIntent] { KioskRecord.openIntents(in: records) }

  /// The ledger and the journal side by side.
  public var paymentAudit: PaymentAudit { PaymentAudit(ledger: ledger, records: records) }
}

/// Why the processor's ledger could not be read.
public enum KioskViewError: Error, CustomStringConvertible {
  /// The ledger at `path` failed to read.
  case ledger(path: String, JournalError)

  public var description: String {
    switch self {
    case .ledger(let path, let error): "processor ledger '\(path)': \(error)"
    }
  }
}
