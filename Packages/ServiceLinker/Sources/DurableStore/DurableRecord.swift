import FeatureKit

/// What made a step, as its record says.
public enum DurableStepKind: Equatable, Sendable {
  /// The app sent the action.
  case sent
  /// Asynchronous work named `task` fed the action back.
  case fedBack(task: String)
  /// `undo` stepped the action, the inverse on top of the undo stack.
  case undone
  /// The intent `key` closed: performed (the action is what its service's
  /// answer fed back, if anything) or, with `abandoned`, given up.
  case outcome(key: IntentKey, abandoned: String?)
  /// Period `period` (counted from 0) ended, closed into the archive at
  /// `archive` (as `closePeriod(into:)` was given it): the journal's last
  /// record, with no action. A live journal that ends with it is a close a
  /// crash cut short, which `open` finishes.
  case periodClosed(period: Int, archive: String)
}

/// One record of a durable store's journal, as its format reads it back: a
/// step, with the intents it opened.
public struct DurableRecord<Model: DurableFeature> {
  /// What made the step.
  public var kind: DurableStepKind
  /// The action stepped; nil for an outcome that feeds nothing back.
  public var action: Model.Action?
  /// The intents the step opened, in order.
  public var intents: [Intent<Model.Request>]

  /// A record.
  public init(kind: DurableStepKind, action: Model.Action?, intents: [Intent<Model.Request>]) {
    self.kind = kind
    self.action = action
    self.intents = intents
  }
}

/// Where a period's journal came from: the period before it, closed into
/// `archive`, whose last record (its `periodClosed`) is `lastSequence`.
/// Every checkpoint of a period after the first names it, so the periods chain.
public struct DurablePeriodLink: Equatable, Sendable {
  /// The period closed (counted from 0).
  public var period: Int
  /// Its archive, as `closePeriod(into:)` was given it.
  public var archive: String
  /// The sequence number of its archive's last record.
  public var lastSequence: UInt64

  /// A link.
  public init(period: Int, archive: String, lastSequence: UInt64) {
    self.period = period
    self.archive = archive
    self.lastSequence = lastSequence
  }
}

/// Everything a durable store keeps, as a checkpoint holds it: the feature's
/// state, the intents still open, the undo stack, the period and the one before it.
public struct DurableCheckpoint<Model: DurableFeature> {
  /// The feature's state.
  public var state: Model.State
  /// Intents journaled and not closed, in the order they were opened.
  public var open: [Intent<Model.Request>]
  /// The inverses `undo` steps, the next one last.
  public var undo: [Model.Action]
  /// How many periods were closed before this one.
  public var period: Int
  /// The period this one follows; nil in the first, and nil when read from
  /// a format that names it only in the period's opening checkpoint.
  public var previous: DurablePeriodLink?
  /// Whether this is the first record of its period's journal, written by
  /// `closePeriod(into:)` (a format may name the previous period only there).
  public var opensPeriod: Bool

  /// A checkpoint.
  public init(
    state: Model.State, open: [Intent<Model.Request>], undo: [Model.Action], period: Int,
    previous: DurablePeriodLink? = nil, opensPeriod: Bool = false
  ) {
    self.state = state
    self.open = open
    self.undo = undo
    self.period = period
    self.previous = previous
    self.opensPeriod = opensPeriod
  }
}
