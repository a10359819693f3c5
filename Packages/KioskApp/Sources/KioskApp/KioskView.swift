import Journal
import KioskCommands
import Menu
import Payment
import Stock
import Tabs

/// What the reading commands show (menu, stock, board, and the start of
/// verify and reconcile): the state the journal replays to, and the
/// processor's ledger. Built by a reader that takes no lock and writes nothing
/// (`read(journal:processor:)`), or by a running shell from its own state.
/// `history`, `verify` and the payment audit stream the files instead
/// (`KioskJournalReader`), in bounded memory.
public struct KioskView: Sendable {
  /// The replayed state.
  public var snapshot: KioskSnapshot
  /// The day the live journal covers.
  public var day: Int
  /// Intents without an outcome yet.
  public var openIntents: [PaymentIntent]
  /// The processor's ledger, oldest first.
  public var ledger: [LocalProcessor.Entry]
  /// The numbers of the ledger's entries lost to damage (`ProcessorLedger.lostNumbers`).
  public var ledgerLost: [Int]
  /// Bytes at the end of the journal that a reader left unread: a torn tail,
  /// or an append in flight. The next writer cuts a torn tail (and saves it).
  public var unreadTailBytes: Int

  /// Creates a view.
  public init(
    snapshot: KioskSnapshot, day: Int, openIntents: [PaymentIntent], ledger: [LocalProcessor.Entry],
    ledgerLost: [Int] = [], unreadTailBytes: Int
  ) {
    self.snapshot = snapshot
    self.day = day
    self.openIntents = openIntents
    self.ledger = ledger
    self.ledgerLost = ledgerLost
    self.unreadTailBytes = unreadTailBytes
  }

  /// Reads the journal from its last checkpoint, and the ledger when
  /// `processor` is given, without a lock and without writing. A journal that
  /// does not exist yet reads as a new one would start (the default menu and
  /// stock), and nothing is created.
  ///
  /// With `point`, the journal and the ledger are read as they stood at that
  /// point (`ReadPoint`), so other reads at the same point agree with this one.
  public static func read(journal: String, processor: String?, at point: ReadPoint? = nil) throws -> KioskView {
    let recovery: JournalRecovery?
    do {
      recovery = try DurableJournal.read(path: journal, endingAt: point?.journalEnd)
    } catch {
      // A journal that does not exist yet reads as the defaults below.
      guard case .missing = error else { throw error }
      recovery = nil
    }
    var contents =
      try recovery.map(KioskReplay.contents) ?? JournalContents(checkpoint: nil, records: [], firstSequence: 1)
    let unread = recovery?.droppedBytes ?? 0
    if contents.checkpoint == nil, contents.records.isEmpty {
      contents.records = [.initialized(menu: KioskDefaults.menu, stock: KioskDefaults.stock)]
    }
    var world = ReplayWorld()
    _ = try KioskReplay.replay(contents, into: &world)
    let ledger = try processor.map { try readLedgerFile($0, endingAt: point?.ledgerAfter) } ?? (entries: [], lost: [])
    return KioskView(
      snapshot: world.snapshot, day: contents.day, openIntents: contents.openIntents, ledger: ledger.entries,
      ledgerLost: ledger.lost, unreadTailBytes: unread)
  }

  /// The processor's ledger at `path`, read without a lock (with `end`, as it
  /// stood when it was `end` bytes long); empty when there is none.
  public static func readLedger(_ path: String, endingAt end: Int? = nil) throws -> [LocalProcessor.Entry] {
    try readLedgerFile(path, endingAt: end).entries
  }

  /// The processor's ledger at `path` and the numbers of its entries lost to damage.
  static func readLedgerFile(_ path: String, endingAt end: Int? = nil) throws -> (
    entries: [LocalProcessor.Entry], lost: [Int]
  ) {
    do {
      let recovery = try DurableJournal.read(path: path, endingAt: end)
      let lost = (0..<recovery.count).filter { recovery.lost($0) != nil }.map { Int(recovery.sequence($0)) }
      return (try recovery.decodedEntries(as: LocalProcessor.Entry.self, skippingLost: true), lost)
    } catch .missing {
      return ([], [])
    } catch {
      throw KioskViewError.ledger(path: path, error)
    }
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
