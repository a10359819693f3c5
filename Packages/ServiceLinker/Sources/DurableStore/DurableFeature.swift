import CanonicalJSON
import FeatureKit

/// A feature a `DurableStore` runs over a journal: a `FeatureModel` that also
/// says which of its steps ask a service outside the process for something
/// (a charge, a message), how that service is asked, and how it is asked
/// again after a crash.
///
/// What the app supplies is policy: the requests a step makes, how one is
/// performed, how the service is asked what became of one (`reconcile`), what
/// to feed back when one is given up, and the inverse undo steps. What the
/// store guarantees is in docs/durable-store.md.
public protocol DurableFeature: FeatureModel {
  /// A request to a service outside the process, journaled as an intent
  /// before it runs and closed by an outcome after it.
  associatedtype Request: CanonicalCodable & Equatable & Sendable

  /// How the store writes this feature's records and checkpoints:
  /// `CanonicalDurableFormat` unless the feature names another.
  associatedtype Format: DurableFormat = CanonicalDurableFormat<Self> where Format.Model == Self

  /// The requests `action`'s step makes of outside services, given the state
  /// after it and what it did. Must depend on nothing else: replay computes
  /// them again and refuses a journal whose intents differ.
  static func requests(after action: Action, state: State, result: StepResult<Effect, Outcome>) -> [Request]

  /// Performs `request` once. `key` is the intent's idempotency key: the same
  /// for every attempt and every process that performs it. Returns the action
  /// to feed back into the step (nil for none). Throwing counts as an attempt
  /// that may or may not have reached the service.
  static func perform(_ request: Request, key: IntentKey, environment: Environment) async throws -> Action?

  /// Asks the service what became of `request` sent under `key`, after a
  /// crash or a failed attempt: whether it was done, never reached it, or
  /// must be given up. Throwing counts as "not known": the store asks again
  /// after the policy's backoff, within its attempts.
  static func reconcile(_ request: Request, key: IntentKey, environment: Environment) async throws
    -> Reconciliation<Action>

  /// Whether `error`, thrown by `perform`, means the service refused the
  /// request for good (a card declined): returns the reason, and the intent
  /// is given up at once, neither asked about nor tried again. Nil, the
  /// default, for an error that may pass (a timeout, a lost answer).
  static func finalFailure(_ error: any Error) -> String?

  /// The action fed back when `request` is given up (`reason` says why), or nil for none.
  static func abandoned(_ request: Request, reason: String) -> Action?

  /// The step that undoes `action` when it was stepped from `before`, or nil
  /// when it cannot be undone. `undo` journals and steps it. None by default.
  static func inverse(of action: Action, before: State) -> Action?

  /// The idempotency key of request `index` of the step journaled as record
  /// `sequence` in the journal salted `salt`: by default
  /// `IntentKey(salt:sequence:index:)`. A feature whose service already
  /// knows keys of another form (the kiosk's processor: `k_<salt>_<sequence>_t<tab>`)
  /// names its own. It must depend on nothing else, and no two intents of a
  /// journal's periods may share one: a key already open stops the process
  /// (the function is wrong), and a journal that holds one is refused on open.
  static func key(for request: Request, salt: UInt64, sequence: UInt64, index: Int) -> IntentKey

  /// Whether `outcome` refuses the action that had it. A refused step must
  /// leave the state as it found it: a store journals nothing for a refused
  /// step it was sent or fed back, opens no intent and starts no work for
  /// it, and `send` returns its result. None is refused by default.
  static func isRefusal(_ outcome: Outcome) -> Bool

  /// Why a step read back from the journal does not replay, given what
  /// stepping it again did (a record that no longer applies to the state
  /// replay has reached); nil when it does. The store refuses to open, or
  /// read, a journal holding one (`DurableStoreError.replay`, with the
  /// record's number). By default every step replays, a refused one too, as
  /// the store that wrote it applied it.
  static func replayFailure(_ outcome: Outcome) -> String?

  /// The state the next period begins from, given the state the current one
  /// ends in (`closePeriod(into:)`): what carries over, as a month's totals
  /// start again at zero. The whole state by default.
  static func nextPeriod(from state: State) -> State

  /// The state a checkpoint keeps, given the state now: what the feature's
  /// environment knows that no record says, folded in as each checkpoint is
  /// written (where a file the app derives from the journal stood once
  /// synced, how far an outside ledger had got). `opensPeriod` for the first
  /// checkpoint of a period's journal. The store goes on from the state it
  /// returns, so a store reopened from the checkpoint holds what the live one
  /// did. It is called before the checkpoint is appended, which may fail
  /// (the store then halts, and the next open reads the last checkpoint
  /// that landed), and while `open` finishes a close a crash cut short,
  /// before the app holds the store: what it does outside the state (sync a
  /// file) must be safe to do again. The state as it is by default.
  static func checkpointing(_ state: State, opensPeriod: Bool, environment: Environment) -> State

  /// The work to start again when a store opens on `state` (a timer that was
  /// running when the process ended). None by default.
  static func resumedTasks(state: State, environment: Environment) -> [EffectTask<Action>]

  /// How long an attempt may take, how often a request is tried, and how long it waits between tries.
  static var effectPolicy: EffectPolicy { get }
  /// Whether the app may `send` `action`. An action that only a service's
  /// answer feeds back, or that only a record read back holds, is not: sent,
  /// it would step an outcome no service gave. Every action by default.
  static func isSendable(_ action: Action) -> Bool
}

extension DurableFeature {
  /// Nothing can be undone.
  public static func inverse(of action: Action, before: State) -> Action? { nil }

  /// Keys of the form `<salt in hex>-<sequence>-<index>`.
  public static func key(for request: Request, salt: UInt64, sequence: UInt64, index: Int) -> IntentKey {
    IntentKey(salt: salt, sequence: sequence, index: index)
  }

  /// No error is final: every failed attempt may be tried again.
  public static func finalFailure(_ error: any Error) -> String? { nil }

  /// Every action may be sent.
  public static func isSendable(_ action: Action) -> Bool { true }
  /// Nothing is refused: every step is journaled.
  public static func isRefusal(_ outcome: Outcome) -> Bool { false }

  /// Every step replays.
  public static func replayFailure(_ outcome: Outcome) -> String? { nil }

  /// Everything carries over.
  public static func nextPeriod(from state: State) -> State { state }

  /// A checkpoint keeps the state as it is.
  public static func checkpointing(_ state: State, opensPeriod: Bool, environment: Environment) -> State { state }

  /// No work to start again.
  public static func resumedTasks(state: State, environment: Environment) -> [EffectTask<Action>] { [] }

  /// The default policy: three attempts of 30 s each, one second apart, doubling.
  public static var effectPolicy: EffectPolicy { EffectPolicy() }
}

/// What a service says became of a request sent before a crash or a failed attempt.
public enum Reconciliation<Action: Sendable>: Sendable {
  /// The service did it: the intent is closed and `feedBack` is stepped (nil for nothing).
  case completed(feedBack: Action?)
  /// The service never got it: the store performs it again, under the same key.
  case notPerformed
  /// It must not be tried again (`reason`): the intent is closed as abandoned
  /// and the feature's `abandoned(_:reason:)` action is stepped.
  case abandon(reason: String)
}

/// An intent's idempotency key: the journal's salt, the sequence number of
/// the record that opened it and the request's place in that record. Unique
/// across every journal and period of a store, and the same after a crash.
public struct IntentKey: Hashable, Sendable, CustomStringConvertible, Comparable {
  /// The key's text, `<salt in hex>-<sequence>-<index>`.
  public let text: String

  /// The key of request `index` of record `sequence` in the journal salted `salt`.
  public init(salt: UInt64, sequence: UInt64, index: Int) {
    text = "\(String(salt, radix: 16))-\(sequence)-\(index)"
  }

  /// A key read back from a journal.
  public init(text: String) { self.text = text }

  public var description: String { text }

  public static func < (lhs: IntentKey, rhs: IntentKey) -> Bool { lhs.text < rhs.text }
}

/// An outside request journaled and not yet closed by an outcome.
public struct Intent<Request: Sendable & Equatable>: Sendable, Equatable {
  /// The idempotency key every attempt carries.
  public let key: IntentKey
  /// What the service is asked.
  public let request: Request

  /// An intent.
  public init(key: IntentKey, request: Request) {
    self.key = key
    self.request = request
  }
}
