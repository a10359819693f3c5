import Journal
import KioskCommands
import Menu
import Payment
import Stock
import Tabs

/// What the reading commands show (menu, stock, board, and the start of
/// verify and reconcile): the state the journal replays to, and the
/// processor's ledger. Built by a reader that takes no lock and writes nothing
/// (`read(journal:processor:)`), or by a running till from its own state.
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
  /// The day's settled tabs, when the view was read to list them
  /// (`read(journal:processor:at:listingSettled:)`, `TillShell.settledListing()`).
  public var settledListing: SettledListing?

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
  ///
  /// With `listingSettled`, the view also lists the day's settled tabs
  /// (`settledListing`): the settled-tabs file's entries up to what the last
  /// checkpoint vouches for, then those the records after it make; when the
  /// file does not hold that, a replay of the day's file from its first record.
  public static func read(
    journal: String, processor: String?, at point: ReadPoint? = nil, listingSettled: Bool = false
  ) throws -> KioskView {
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
    let progress = try KioskReplay.replay(contents, into: &world, collectingSettledTabs: listingSettled)
    let ledger = try processor.map { try readLedgerFile($0, endingAt: point?.ledgerAfter) } ?? (entries: [], lost: [])
    var view = KioskView(
      snapshot: world.snapshot, day: contents.day, openIntents: contents.openIntents, ledger: ledger.entries,
      ledgerLost: ledger.lost, unreadTailBytes: unread)
    if listingSettled {
      let tail = progress.settledTabs ?? []
      var entries: [SettledTabsEntry]?
      if let checkpoint = contents.checkpoint {
        if let mark = checkpoint.settledTabs, let recovery,
          let kept = SettledTabsFile.entries(besideJournal: journal, salt: recovery.salt, through: mark)
        {
          entries = kept + tail
        }
      } else {
        entries = tail
      }
      if entries == nil, recovery != nil {
        entries = try SettledTabsFile.replayedEntries(ofDay: journal, endingAt: point?.journalEnd)
      }
      view.settledListing = SettledListing(entries ?? [], counted: world.tabs.settled)
    }
    return view
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

  /// Every open tab, oldest first.
  public var board: [BoardEntry] { world.board }

  /// How many tabs the day settled, and what they came to.
  public var settled: SettledTabs { snapshot.tabs.settled }

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
