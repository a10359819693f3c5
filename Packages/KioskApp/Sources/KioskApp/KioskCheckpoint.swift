import Journal
import KioskCommands
import Payment
import Tabs

/// A checkpoint: everything opening the kiosk needs, so that it replays only
/// the records after it. Journaled as a checkpoint record (type 2), every
/// `TillShell.defaultCheckpointInterval` records or more, and as the first record of
/// each day after the first (docs/journal.md, "Checkpoints").
public struct KioskCheckpoint: Codable, Equatable, Sendable {
  /// The form this code writes in a journal of version 1 or 2 (`JSONEncoder`'s;
  /// in version 3 it writes `canonicalFormat`, 4). Format 2 (no `format` key)
  /// held every tab of the day, settled ones flagged; formats 3 and 4 hold the
  /// open tabs and a count of the settled ones, which are in the day's
  /// settled-tabs file (`KioskCheckpoint+Format2.swift` reads format 2 into this form).
  public static let currentFormat = 3

  /// The day this journal segment covers, from 1.
  public var day: Int
  /// The form the checkpoint was written in (`currentFormat`, or `canonicalFormat` when read from one).
  public var format: Int
  /// Every slice.
  public var state: KioskSnapshot
  /// What `undo` can still revert, oldest first.
  public var undo: [UndoHistory.Entry]
  /// Payment intents without an outcome yet.
  public var openIntents: [PaymentIntent]
  /// Whether any payment was ever journaled (the ledger must then exist).
  public var paymentsJournaled: Bool
  /// On the first record of a day after the first: the day it continues from.
  public var previousDay: ClosedDay?
  /// How many numbers the processor ledger had given (movements and retired
  /// ones) when this was written: a ledger that has given fewer was restored
  /// from an older copy, and the numbers between are retired, never reused.
  /// Nil in checkpoints written before it was kept.
  public var ledgerNumbersUsed: Int?
  /// Where the day's settled-tabs file stood when this was written: its
  /// entries up to here are the settles and reopenings of the records before
  /// this checkpoint. Nil when the file was behind (a write to it failed) or
  /// in format 2, which had no such file: it is then rebuilt from the journal.
  public var settledTabs: DerivedLog.Mark?
  /// Where the day's movements begin in the processor's ledger: the ledger's
  /// end when the day before closed. A writer reads the ledger from there
  /// (the day's keys are the day's journal's, so nothing before concerns its
  /// payments). Nil on day 1 and in checkpoints written before it was kept:
  /// the ledger is then read whole.
  public var ledgerStart: JournalAnchor?
  /// The till's name in its chain (a `tillNamed` record's, carried from
  /// checkpoint to checkpoint and from day to day); nil, and not written,
  /// while the till has none, so an unnamed till's checkpoints are as before.
  public var till: String?

  /// Creates a checkpoint.
  public init(
    day: Int, state: KioskSnapshot, undo: [UndoHistory.Entry], openIntents: [PaymentIntent],
    paymentsJournaled: Bool, previousDay: ClosedDay? = nil, ledgerNumbersUsed: Int? = nil,
    settledTabs: DerivedLog.Mark? = nil, ledgerStart: JournalAnchor? = nil, till: String? = nil
  ) {
    self.day = day
    format = Self.currentFormat
    self.state = state
    self.undo = undo
    self.openIntents = openIntents
    self.paymentsJournaled = paymentsJournaled
    self.previousDay = previousDay
    self.ledgerNumbersUsed = ledgerNumbersUsed
    self.settledTabs = settledTabs
    self.ledgerStart = ledgerStart
    self.till = till
  }
}

/// A closed day, as the next day's first checkpoint names it: `verify --all`
/// checks that the days chain.
public struct ClosedDay: Codable, Equatable, Sendable {
  /// Its number.
  public var day: Int
  /// The archive's file name, beside the live journal.
  public var archive: String
  /// The sequence number of its last record (its `dayClosed`).
  public var lastSequence: UInt64
  /// The digest of the state carried over: the day's closing state without its settled tabs.
  public var carriedDigest: String

  /// Creates the link.
  public init(day: Int, archive: String, lastSequence: UInt64, carriedDigest: String) {
    self.day = day
    self.archive = archive
    self.lastSequence = lastSequence
    self.carriedDigest = carriedDigest
  }
}

extension KioskSnapshot {
  /// The state a new day starts from: this one with nothing settled yet (the
  /// day's settled tabs stay in its archive).
  public var carriedOver: KioskSnapshot {
    var next = self
    next.tabs.settled = SettledTabs()
    return next
  }
}
